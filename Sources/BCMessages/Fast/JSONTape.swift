/// One JSON value of a scanned message, as a fixed-size record: the fast engine's whole view of the message.
///
/// The scanner writes one entry per value, in document order; an object's members follow it as key, value,
/// key, value. Strings and numbers are byte ranges into the message, read only when a field asks for them.
struct TapeEntry {
    enum Kind: UInt8 {
        case object, array, string, number, `true`, `false`, null
    }

    var kind: Kind
    /// Strings: `TapeEntry.escaped`, `.control`, `.nonASCII`; numbers: `.integerLiteral`.
    var flags: UInt8
    /// Strings and numbers: the first byte (after the quote). Containers: the index of the entry after the
    /// container's last value (its next sibling).
    var a: Int32
    /// Strings and numbers: the end byte (before the quote). Containers: how many values (members for objects).
    var b: Int32
    /// Objects: where the object's member table starts in `TapeDocument.members`, plus one; 0 until built.
    var c: Int32

    /// The string has a backslash escape.
    static let escaped: UInt8 = 1
    /// The string has a raw control character (invalid, but like Foundation only when the string is read).
    static let control: UInt8 = 2
    /// The string has a byte above 0x7F (so its UTF-8 must be validated when read).
    static let nonASCII: UInt8 = 4
    /// The number is a plain integer literal: an optional `-` and digits only.
    static let integerLiteral: UInt8 = 8
    /// The object was read as a dictionary whose keys give numeric strings an int value (for coding paths).
    static let integerKeys: UInt8 = 16
}

/// The scanner's output: entries in a buffer it grows by doubling. A plain pointer rather than an array, so that
/// neither appending while scanning nor reading while decoding pays for uniqueness, bounds or exclusivity
/// checks: every index read comes from the tape itself (a container's `a` and `b`, or a position counted from
/// them), and the buffer is owned by exactly one scanner and then one `TapeDocument`, which frees it.
struct TapeBuffer {
    private(set) var base: UnsafeMutablePointer<TapeEntry>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    /// A buffer of at least `capacity` entries: this thread's spare one when it is large enough.
    init(reusing state: DecodeThreadState, capacity: Int) {
        if let spare = state.takeSpare(capacity: capacity) {
            self.init(base: spare.base, capacity: spare.capacity)
        } else {
            self.init(capacity: capacity)
        }
    }

    private init(base: UnsafeMutablePointer<TapeEntry>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    @inline(__always)
    mutating func append(_ entry: TapeEntry) {
        if count == capacity { grow() }
        (base + count).initialize(to: entry)
        count += 1
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<TapeEntry>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }

    @inline(__always)
    subscript(index: Int) -> TapeEntry {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    /// Frees the entries (TapeEntry is trivial: nothing to deinitialize).
    func deallocate() { base.deallocate() }

    /// Gives the entries back as this thread's spare buffer, or frees them.
    func recycle() {
        DecodeThreadState.current._withUnsafeGuaranteedRef { $0.recycle(base, capacity: capacity) }
    }
}

/// The JSON text is not a JSON document. Why does not matter here: `BCMessageDecoder` describes it from the text.
struct TapeScanError: Error {}

/// A single pass over UTF-8 bytes that records every value's kind and byte range, validating structure only.
///
/// The rules follow Foundation's `JSONScanner` exactly, so that both engines accept and reject the same texts:
/// string contents (escapes, control characters, UTF-8) and number syntax are checked only when a value is
/// read; trailing commas are accepted; nesting is limited to 512 containers; only whitespace may follow the
/// top-level value. The work is linear in the bytes: each byte is looked at a bounded number of times.
struct TapeScanner {
    private let base: UnsafePointer<UInt8>
    private let count: Int
    private(set) var entries: TapeBuffer

    static let maximumDepth = 512

    /// Nil for an empty text, which is never a JSON document, and for one of 2 GiB or more.
    init?(_ bytes: UnsafeBufferPointer<UInt8>, state: DecodeThreadState) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        // Offsets are Int32 on the tape: a text of 2 GiB or more is refused here, so none is ever truncated.
        guard bytes.count < Int(Int32.max) else { return nil }
        self.base = base
        count = bytes.count
        // Messages average one value per ~12 bytes; this avoids regrowth for typical messages.
        entries = TapeBuffer(reusing: state, capacity: bytes.count / 8 + 4)
    }

    /// Scans the whole text; on success `entries[0]` is the top-level value.
    ///
    /// One loop with every bit of state in locals, not a recursive descent: the position, the tape and the
    /// innermost open container (its entry, kind and count of values so far) stay in registers. The other open
    /// containers form a stack threaded through the tape itself: while a container is open, its entry's `a`
    /// holds the tape index of the container around it (-1 for none), and while a container inside it is open,
    /// its `b` holds its count of values; closing it sets `a` to the index after its last value and `b` to the
    /// count, as readers expect.
    mutating func scan() throws(TapeScanError) {
        var entries = self.entries
        defer { self.entries = entries }  // on error too: the caller frees the buffer
        let base = self.base
        let count = self.count
        var index = 0
        var depth = 0
        var open: Int32 = -1  // the innermost open container's entry, -1 at the top level
        var openIsObject = false
        var openCount: Int32 = 0  // values of `open` completed so far

        /// The next byte that is not whitespace, at `index`; throws at the end of the text.
        @inline(__always)
        func skipWhitespace(_ index: inout Int) throws(TapeScanError) -> UInt8 {
            // Messages on the wire are compact: the next byte is almost always the token itself.
            if index < count, base[index] > 0x20 { return base[index] }
            while index < count {
                let byte = base[index]
                if !Self.isWhitespace(byte) { return byte }
                index &+= 1
            }
            throw TapeScanError()
        }

        var expectingKey = false
        while true {
            // A value (or, in an object, a key then its value) starts here.
            var closesNow = false
            if expectingKey {
                expectingKey = false
                // The members of the object `open`, in a loop of their own while their values are strings,
                // numbers or literals (most members of most messages): key, colon, value, then a comma and the
                // next key, or the closing brace. A container value leaves the loop at the value, for the switch
                // below; the closing brace, for the closing below.
                members: while true {
                    guard try skipWhitespace(&index) == UInt8(ascii: "\"") else { throw TapeScanError() }
                    try Self.scanString(base, count, &index, &entries)
                    guard try skipWhitespace(&index) == UInt8(ascii: ":") else { throw TapeScanError() }
                    index &+= 1
                    switch try skipWhitespace(&index) {
                    case UInt8(ascii: "\""): try Self.scanString(base, count, &index, &entries)
                    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                        Self.scanNumber(base, count, &index, &entries)
                    case UInt8(ascii: "t"): try Self.scanLiteral("true", .true, base, count, &index, &entries)
                    case UInt8(ascii: "f"): try Self.scanLiteral("false", .false, base, count, &index, &entries)
                    case UInt8(ascii: "n"): try Self.scanLiteral("null", .null, base, count, &index, &entries)
                    default: break members
                    }
                    openCount &+= 1
                    let next = try skipWhitespace(&index)
                    index &+= 1
                    if next == UInt8(ascii: ",") {
                        // In compact text a key's quote follows at once; Foundation accepts a trailing comma.
                        if index < count, base[index] == UInt8(ascii: "\"") { continue }
                        if try skipWhitespace(&index) == UInt8(ascii: "}") {
                            index &+= 1
                            closesNow = true
                            break members
                        }
                        continue
                    }
                    guard next == UInt8(ascii: "}") else { throw TapeScanError() }
                    closesNow = true
                    break members
                }
            }
            if !closesNow {
                switch try skipWhitespace(&index) {
                case UInt8(ascii: "\""):
                    try Self.scanString(base, count, &index, &entries)
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    Self.scanNumber(base, count, &index, &entries)
                case let opener where opener == UInt8(ascii: "{") || opener == UInt8(ascii: "["):
                    guard depth < Self.maximumDepth else { throw TapeScanError() }
                    depth &+= 1
                    index &+= 1
                    let isObject = opener == UInt8(ascii: "{")
                    let entry = Int32(truncatingIfNeeded: entries.count)
                    if open >= 0 { entries[Int(open)].b = openCount }
                    entries.append(TapeEntry(kind: isObject ? .object : .array, flags: 0, a: open, b: 0, c: 0))
                    open = entry
                    openIsObject = isObject
                    openCount = 0
                    if try skipWhitespace(&index) == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        index &+= 1
                        closesNow = true
                    } else {
                        expectingKey = isObject
                        continue
                    }
                case UInt8(ascii: "t"): try Self.scanLiteral("true", .true, base, count, &index, &entries)
                case UInt8(ascii: "f"): try Self.scanLiteral("false", .false, base, count, &index, &entries)
                case UInt8(ascii: "n"): try Self.scanLiteral("null", .null, base, count, &index, &entries)
                default: throw TapeScanError()
                }
            }
            // After a value: close every container that ends here, then go on with the next value, if any.
            while true {
                if closesNow {
                    // The container `open` ends: its `a` (the parent) becomes the index after its last value.
                    let parent = entries[Int(open)].a
                    entries[Int(open)].a = Int32(truncatingIfNeeded: entries.count)
                    entries[Int(open)].b = openCount
                    open = parent
                    if open >= 0 {
                        openCount = entries[Int(open)].b
                        openIsObject = entries[Int(open)].kind == .object
                    }
                    depth &-= 1
                    closesNow = false
                }
                if open < 0 {
                    // The top-level value is complete: only whitespace may follow it.
                    while index < count {
                        guard Self.isWhitespace(base[index]) else { throw TapeScanError() }
                        index &+= 1
                    }
                    return
                }
                openCount &+= 1
                let closer = openIsObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                let next = try skipWhitespace(&index)
                index &+= 1
                if next == UInt8(ascii: ",") {
                    // Foundation accepts a trailing comma. In compact text a key's quote follows at once.
                    if index < count, base[index] == UInt8(ascii: "\""), openIsObject {
                        expectingKey = true
                        break
                    }
                    if try skipWhitespace(&index) == closer {
                        index &+= 1
                        closesNow = true
                        continue
                    }
                    expectingKey = openIsObject
                    break
                }
                guard next == closer else { throw TapeScanError() }
                closesNow = true
            }
        }
    }

    @inline(__always)
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    @inline(__always)
    private static func scanLiteral(
        _ literal: StaticString, _ kind: TapeEntry.Kind, _ base: UnsafePointer<UInt8>, _ count: Int,
        _ index: inout Int, _ entries: inout TapeBuffer
    ) throws(TapeScanError) {
        let length = literal.utf8CodeUnitCount
        guard count &- index >= length else { throw TapeScanError() }
        let expected = literal.utf8Start
        for offset in 0..<length where base[index &+ offset] != expected[offset] { throw TapeScanError() }
        index &+= length
        entries.append(TapeEntry(kind: kind, flags: 0, a: 0, b: 0, c: 0))
    }

    /// A number token is every following byte that can be part of a number (`0-9 . + - e E`), as Foundation
    /// scans it; whether it is a valid JSON number is decided when it is read.
    @inline(__always)
    private static func scanNumber(
        _ base: UnsafePointer<UInt8>, _ count: Int, _ index: inout Int, _ entries: inout TapeBuffer
    ) {
        let start = index
        var integerLiteral = true
        index &+= 1
        while index < count {
            let byte = base[index]
            if byte &- UInt8(ascii: "0") < 10 {
                index &+= 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                        || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                integerLiteral = false
                index &+= 1
            } else {
                break
            }
        }
        entries.append(TapeEntry(kind: .number, flags: integerLiteral ? TapeEntry.integerLiteral : 0,
                                 a: Int32(truncatingIfNeeded: start), b: Int32(truncatingIfNeeded: index), c: 0))
    }

    /// Finds the closing quote, skipping escapes (`\` and the byte after it; `\u` and four bytes that must not
    /// be a quote). Escapes, control characters and UTF-8 are validated when the string is read.
    @inline(__always)
    private static func scanString(
        _ base: UnsafePointer<UInt8>, _ count: Int, _ position: inout Int, _ entries: inout TapeBuffer
    ) throws(TapeScanError) {
        var index = position &+ 1  // after the opening quote
        let start = index
        var flags: UInt8 = 0
        var seen: UInt64 = 0  // every byte or-ed together: its high bits say whether any byte was above 0x7F
        while true {
            // Eight bytes at a time while none of them is a quote, a backslash or a control character; at a word
            // that holds one, straight to it (the lowest flagged byte is always a true one).
            while count &- index >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let special = JSONSpecialBytes.of(word)
                if special != 0 {
                    let before = special.trailingZeroBitCount &>> 3
                    seen |= word & ((1 &<< UInt64(before &<< 3)) &- 1)
                    index &+= before
                    break
                }
                seen |= word
                index &+= 8
            }
            guard index < count else { throw TapeScanError() }
            let byte = base[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                flags |= TapeEntry.escaped
                guard count &- index >= 2 else { throw TapeScanError() }
                let escape = base[index &+ 1]
                index &+= 2
                if escape == UInt8(ascii: "u") {
                    guard count &- index >= 4 else { throw TapeScanError() }
                    // Like Foundation: the four bytes are checked only for a quote now, as hex when read.
                    let four = UnsafeRawPointer(base + index).loadUnaligned(as: UInt32.self) ^ 0x2222_2222
                    guard (four &- 0x0101_0101) & ~four & 0x8080_8080 == 0 else { throw TapeScanError() }
                    index &+= 4
                }
                continue
            }
            if byte < 0x20 { flags |= TapeEntry.control }
            seen |= UInt64(byte)
            index &+= 1
        }
        if seen & 0x8080_8080_8080_8080 != 0 { flags |= TapeEntry.nonASCII }
        entries.append(TapeEntry(kind: .string, flags: flags, a: Int32(truncatingIfNeeded: start),
                                 b: Int32(truncatingIfNeeded: index), c: 0))
        position = index &+ 1  // after the closing quote
    }
}
