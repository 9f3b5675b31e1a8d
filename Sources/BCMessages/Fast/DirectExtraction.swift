/// Direct extraction: every kind's fields read straight off the tape, with no `Decoder`, no containers and no
/// existentials. Each payload struct's `init(tape:)` is generated beside it from the catalogue (`Catalogue/`):
/// one pass over the object's members, in document order, matching each key by its length and its bytes read a
/// word at a time (`TapeKey.word(_:)`), and converting the value with the reads below. The two kinds kept whole
/// (`Unknown`, `EmomoQuestGift`) are here.
///
/// Each `init(tape:)` must build exactly what the kind's `init(from:)` builds. It only ever takes the happy
/// path: at the first irregularity (a required key missing, a value no rule accepts, a known key twice, a key
/// written with escapes or bytes beyond ASCII) it throws `FastMiss`, and the engine decodes the message again
/// through `init(from:)` over the tape, which gives the precise error (or, should the two ever disagree, the
/// reference value). `FastEngineEquivalenceTests` compares the two.
struct FastMiss: Error {}

/// An object of the tape, read member by member with the `Forcible` rules.
///
/// It borrows its document instead of holding it: an `Unmanaged` reference, read through
/// `_withUnsafeGuaranteedRef`, so that making a `TapeObject`, copying it and reading a field cost no retain and no
/// release (a strong reference cost a retain and a release per object, per member walk and per field: a fifth of
/// a small message's decode). A `TapeObject` lives only inside the extraction the engine runs while it holds the
/// document (`FastEngine.extractDirectly(_:)` takes it as an argument), and none is ever stored.
struct TapeObject {
    private let reference: Unmanaged<TapeDocument>
    /// The document's tape and bytes, plain pointers read without touching the document.
    private let entries: TapeBuffer
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The object's own tape index.
    let index: Int32

    init(_ document: TapeDocument, at index: Int32) throws(FastMiss) {
        try self.init(Unmanaged.passUnretained(document), at: index)
    }

    /// The object at `index` of the document `reference` holds, read borrowed: made from the class reference
    /// itself, the document was retained and released around the call, every message.
    init(_ reference: Unmanaged<TapeDocument>, at index: Int32) throws(FastMiss) {
        let (entries, bytes) = reference._withUnsafeGuaranteedRef { ($0.entries, $0.bytes) }
        try self.init(reference, entries: entries, bytes: bytes, at: index)
    }

    private init(_ reference: Unmanaged<TapeDocument>, entries: TapeBuffer, bytes: UnsafeBufferPointer<UInt8>,
                 at index: Int32) throws(FastMiss) {
        guard entries[Int(index)].kind == .object else { throw FastMiss() }
        self.reference = reference
        self.entries = entries
        self.bytes = bytes
        self.index = index
    }

    /// Another object of the same document.
    @inline(__always)
    private func object(at index: Int32) throws(FastMiss) -> TapeObject {
        try TapeObject(reference, entries: entries, bytes: bytes, at: index)
    }

    /// The document, for what is not on the hot path (the tests' key notes, a whole object as JSON values).
    var document: TapeDocument { reference.takeUnretainedValue() }

    /// Calls `body` with the document, borrowed: no retain, no release.
    @inline(__always)
    private func withDocument<Result>(_ body: (TapeDocument) -> Result) -> Result {
        reference._withUnsafeGuaranteedRef(body)
    }

    /// Whether a test is noting the keys each path reads (`FastEngine.bothPaths`).
    @inline(__always)
    var notesKeys: Bool { withDocument { $0.lookedUp != nil } }

    /// The object's members, in document order.
    @inline(__always)
    var members: TapeMembers {
        TapeMembers(entries: entries, bytes: bytes, nextKey: index + 1, remaining: entries[Int(index)].b)
    }

    /// The message's `t` (the first `t` member, as a forcible Int); nil when absent, null or unreadable, or
    /// when a key before it is not plain ASCII (the generic path then decides).
    func typeNumber() -> Int? {
        if notesKeys { noteKeys(["t"]) }
        var members = self.members
        while let member = try? members.next() {
            if member.key.count == 1, member.key.start.pointee == UInt8(ascii: "t") {
                guard !isNull(member.value) else { return nil }
                return forceInt(at: member.value)
            }
        }
        return nil
    }

    /// `value`, when every key of the object is plain ASCII (no escape, no raw control character, nothing
    /// beyond ASCII); else `FastMiss`, and the generic path reads the object as Foundation does (it cannot open
    /// an object whose key is not valid text). For what reads no member: a bare kind, a struct without keys.
    func withPlainKeys<Value>(_ value: Value) throws(FastMiss) -> Value {
        var members = self.members
        while try members.next() != nil {}
        return value
    }

    /// For the tests that compare what each path reads: notes the keys a generated `init(tape:)` matches.
    func noteKeys(_ keys: [StaticString]) {
        for key in keys {
            let name = key.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
            document.lookedUp?.insert("\(index):\(name)")
        }
    }

    /// Marks a key's bit in `seen`; a known key met twice is irregular (the generic path keeps the first).
    @inline(__always)
    static func mark(_ seen: inout UInt64, _ bit: UInt64) throws(FastMiss) {
        if seen & bit != 0 { throw FastMiss() }
        seen |= bit
    }

    @inline(__always)
    func isNull(_ value: Int32) -> Bool { entries[Int(value)].kind == .null }

    // MARK: - Reads of one member's value (required: not null; optional: nil when null)
    //
    // Inlined into the generated code: each is a null check around one call of the document's rule, and as calls
    // of their own they made three calls a field. +5% on comments and on the captured-style corpus, +3-6% on gifts;
    // -3% on the fixtures, whose sixty kinds' code grew (DESIGN, "Decoding beside msgspec", fifth round).

    /// The forcible rules, the document borrowed; also passed by name for arrays of forcible elements
    /// (`forcedArray(at:_:)`): a closure over a `TapeObject` holds no reference to retain.
    @inline(__always)
    func forceString(at value: Int32) -> String? { withDocument { $0.forceString(at: value) } }
    @inline(__always)
    func forceInt(at value: Int32) -> Int? { withDocument { $0.forceInt(at: value) } }
    @inline(__always)
    func forceBool(at value: Int32) -> Bool? { withDocument { $0.forceBool(at: value) } }
    @inline(__always)
    func forceDouble(at value: Int32) -> Double? { withDocument { $0.forceDouble(at: value) } }

    @inline(__always)
    func string(at value: Int32) throws(FastMiss) -> String {
        guard !isNull(value), let string = forceString(at: value) else { throw FastMiss() }
        return string
    }

    @inline(__always)
    func int(at value: Int32) throws(FastMiss) -> Int {
        guard !isNull(value), let int = forceInt(at: value) else { throw FastMiss() }
        return int
    }

    @inline(__always)
    func bool(at value: Int32) throws(FastMiss) -> Bool {
        guard !isNull(value), let bool = forceBool(at: value) else { throw FastMiss() }
        return bool
    }

    @inline(__always)
    func double(at value: Int32) throws(FastMiss) -> Double {
        guard !isNull(value), let double = forceDouble(at: value) else { throw FastMiss() }
        return double
    }

    @inline(__always)
    func optionalString(at value: Int32) throws(FastMiss) -> String? {
        if isNull(value) { return nil }
        return try string(at: value)
    }

    @inline(__always)
    func optionalInt(at value: Int32) throws(FastMiss) -> Int? {
        if isNull(value) { return nil }
        return try int(at: value)
    }

    @inline(__always)
    func optionalBool(at value: Int32) throws(FastMiss) -> Bool? {
        if isNull(value) { return nil }
        return try bool(at: value)
    }

    @inline(__always)
    func optionalDouble(at value: Int32) throws(FastMiss) -> Double? {
        if isNull(value) { return nil }
        return try double(at: value)
    }

    /// A nested object (`var x: T`).
    func object<T>(at value: Int32, _ make: (TapeObject) throws(FastMiss) -> T) throws(FastMiss) -> T {
        try make(try object(at: value))
    }

    /// A nested object that may be null (`var x: T?`).
    func optionalObject<T>(at value: Int32, _ make: (TapeObject) throws(FastMiss) -> T) throws(FastMiss) -> T? {
        if isNull(value) { return nil }
        return try make(try object(at: value))
    }

    /// An array of objects, each required (`var x: [T]`).
    func objects<T>(at value: Int32, _ make: (TapeObject) throws(FastMiss) -> T) throws(FastMiss) -> [T] {
        guard entries[Int(value)].kind == .array else { throw FastMiss() }
        var result: [T] = []
        result.reserveCapacity(Int(entries[Int(value)].b))
        var element = value + 1
        for _ in 0..<entries[Int(value)].b {
            result.append(try make(try object(at: element)))
            element = TapeDocument.next(after: element, in: entries)
        }
        return result
    }

    /// An array of objects that may be null (`var x: [T]?`).
    func optionalObjects<T>(at value: Int32, _ make: (TapeObject) throws(FastMiss) -> T) throws(FastMiss) -> [T]? {
        if isNull(value) { return nil }
        return try objects(at: value, make)
    }

    /// An array of forcible elements (`@ForcibleArray var x: [String]`).
    func forcedArray<Element>(at value: Int32, _ rule: (Int32) -> Element?) throws(FastMiss) -> [Element] {
        guard entries[Int(value)].kind == .array else { throw FastMiss() }
        var result: [Element] = []
        result.reserveCapacity(Int(entries[Int(value)].b))
        var element = value + 1
        for _ in 0..<entries[Int(value)].b {
            guard !isNull(element), let read = rule(element) else { throw FastMiss() }
            result.append(read)
            element = TapeDocument.next(after: element, in: entries)
        }
        return result
    }

    /// An array of forcible elements that may be null (`@OptionalForcibleArray var x: [Int]?`).
    func optionalForcedArray<Element>(at value: Int32, _ rule: (Int32) -> Element?) throws(FastMiss) -> [Element]? {
        if isNull(value) { return nil }
        return try forcedArray(at: value, rule)
    }

    /// An object of forcible strings (`@Forcible var x: [String: String]`); the first of duplicate keys wins.
    func stringDictionary(at value: Int32) throws(FastMiss) -> [String: String] {
        let document = self.document
        guard entries[Int(value)].kind == .object else { throw FastMiss() }
        var result: [String: String] = [:]
        var member = value + 1
        for _ in 0..<document.entries[Int(value)].b {
            guard let name = document.string(at: member) else { throw FastMiss() }
            if result[name] == nil {
                guard !isNull(member + 1), let read = document.forceString(at: member + 1) else { throw FastMiss() }
                result[name] = read
            }
            member = document.next(after: member + 1)
        }
        return result
    }

    /// An object of forcible strings that may be null (`@Forcible var x: [String: String]?`).
    func optionalStringDictionary(at value: Int32) throws(FastMiss) -> [String: String]? {
        if isNull(value) { return nil }
        return try stringDictionary(at: value)
    }

    /// The whole object as `JSONValue`s, as `[String: JSONValue](from:)` reads it.
    func jsonObject() throws(FastMiss) -> [String: JSONValue] {
        guard case .object(let members)? = try? document.jsonValue(at: index) else { throw FastMiss() }
        return members
    }
}

/// The members of one object of the tape, in document order.
struct TapeMembers {
    let entries: TapeBuffer
    let bytes: UnsafeBufferPointer<UInt8>
    /// The tape index of the next member's key.
    var nextKey: Int32
    var remaining: Int32

    /// The next member: its key's bytes and its value's tape index. Throws `FastMiss` for a key with escapes,
    /// raw control characters or bytes beyond ASCII: such a key could spell a known key another way, or not be
    /// valid UTF-8 at all, and the generic path reads it as Foundation does.
    @inline(__always)
    mutating func next() throws(FastMiss) -> (key: TapeKey, value: Int32)? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        let entry = entries[Int(nextKey)]
        if entry.flags & (TapeEntry.escaped | TapeEntry.nonASCII | TapeEntry.control) != 0 { throw FastMiss() }
        let value = nextKey + 1
        nextKey = TapeDocument.next(after: value, in: entries)
        guard let base = bytes.baseAddress else { throw FastMiss() }
        return (TapeKey(start: base + Int(entry.a), count: Int(entry.b - entry.a), end: base + bytes.count), value)
    }
}

/// A member's key, as plain ASCII bytes in the message, compared with the keys a struct knows a word at a time.
struct TapeKey {
    let start: UnsafePointer<UInt8>
    let count: Int
    /// The end of the message's bytes: a word may be loaded whole when it ends before this.
    let end: UnsafePointer<UInt8>

    /// The key's bytes from `offset` (less than `count`), up to eight, as a little-endian word with the bytes
    /// beyond the key zero: the word the generator computed for the same bytes of a known key.
    @inline(__always)
    func word(_ offset: Int) -> UInt64 {
        let pointer = start + offset
        let remaining = count - offset
        if remaining >= 8 { return UInt64(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self)) }
        if end - pointer >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self))
            return word & ((1 &<< UInt64(remaining &* 8)) &- 1)
        }
        // Near the end of the message: byte by byte, never reading past it.
        var word: UInt64 = 0
        for index in 0..<remaining { word |= UInt64(pointer[index]) &<< UInt64(index &* 8) }
        return word
    }
}

extension BCResponse.Unknown {
    init(tape object: TapeObject, t: Int) throws(FastMiss) {
        self.init(t: t, json: try object.jsonObject())
    }
}

extension BCResponse.EmomoQuestGift {
    init(tape object: TapeObject) throws(FastMiss) {
        var fields = try object.jsonObject()
        fields.removeValue(forKey: "t")
        self.init(fields: fields)
    }
}
