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
struct TapeObject {
    let document: TapeDocument
    /// The object's own tape index.
    let index: Int32

    init(_ document: TapeDocument, at index: Int32) throws(FastMiss) {
        guard document.entries[Int(index)].kind == .object else { throw FastMiss() }
        self.document = document
        self.index = index
    }

    /// The object's members, in document order.
    @inline(__always)
    var members: TapeMembers {
        TapeMembers(document: document, nextKey: index + 1, remaining: document.entries[Int(index)].b)
    }

    /// The message's `t` (the first `t` member, as a forcible Int); nil when absent, null or unreadable, or
    /// when a key before it is not plain ASCII (the generic path then decides).
    func typeNumber() -> Int? {
        if document.lookedUp != nil { noteKeys(["t"]) }
        var members = self.members
        while let member = try? members.next() {
            if member.key.count == 1, member.key.start.pointee == UInt8(ascii: "t") {
                guard !isNull(member.value) else { return nil }
                return document.forceInt(at: member.value)
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
    func isNull(_ value: Int32) -> Bool { document.entries[Int(value)].kind == .null }

    // MARK: - Reads of one member's value (required: not null; optional: nil when null)

    // The reads call the document's rules directly: passing `document.forceString` as a closure would capture
    // the document, a retain and a release per field.
    func string(at value: Int32) throws(FastMiss) -> String {
        guard !isNull(value), let string = document.forceString(at: value) else { throw FastMiss() }
        return string
    }

    func int(at value: Int32) throws(FastMiss) -> Int {
        guard !isNull(value), let int = document.forceInt(at: value) else { throw FastMiss() }
        return int
    }

    func bool(at value: Int32) throws(FastMiss) -> Bool {
        guard !isNull(value), let bool = document.forceBool(at: value) else { throw FastMiss() }
        return bool
    }

    func double(at value: Int32) throws(FastMiss) -> Double {
        guard !isNull(value), let double = document.forceDouble(at: value) else { throw FastMiss() }
        return double
    }

    func optionalString(at value: Int32) throws(FastMiss) -> String? {
        if isNull(value) { return nil }
        return try string(at: value)
    }

    func optionalInt(at value: Int32) throws(FastMiss) -> Int? {
        if isNull(value) { return nil }
        return try int(at: value)
    }

    func optionalBool(at value: Int32) throws(FastMiss) -> Bool? {
        if isNull(value) { return nil }
        return try bool(at: value)
    }

    func optionalDouble(at value: Int32) throws(FastMiss) -> Double? {
        if isNull(value) { return nil }
        return try double(at: value)
    }

    /// A nested object (`var x: T`).
    func object<T>(at value: Int32, _ make: (TapeObject) throws(FastMiss) -> T) throws(FastMiss) -> T {
        try make(try TapeObject(document, at: value))
    }

    /// A nested object that may be null (`var x: T?`).
    func optionalObject<T>(at value: Int32, _ make: (TapeObject) throws(FastMiss) -> T) throws(FastMiss) -> T? {
        if isNull(value) { return nil }
        return try make(try TapeObject(document, at: value))
    }

    /// An array of objects, each required (`var x: [T]`).
    func objects<T>(at value: Int32, _ make: (TapeObject) throws(FastMiss) -> T) throws(FastMiss) -> [T] {
        guard document.entries[Int(value)].kind == .array else { throw FastMiss() }
        var result: [T] = []
        result.reserveCapacity(Int(document.entries[Int(value)].b))
        var element = value + 1
        for _ in 0..<document.entries[Int(value)].b {
            result.append(try make(try TapeObject(document, at: element)))
            element = document.next(after: element)
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
        guard document.entries[Int(value)].kind == .array else { throw FastMiss() }
        var result: [Element] = []
        result.reserveCapacity(Int(document.entries[Int(value)].b))
        var element = value + 1
        for _ in 0..<document.entries[Int(value)].b {
            guard !isNull(element), let read = rule(element) else { throw FastMiss() }
            result.append(read)
            element = document.next(after: element)
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
        guard document.entries[Int(value)].kind == .object else { throw FastMiss() }
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
    let document: TapeDocument
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
        let entry = document.entries[Int(nextKey)]
        if entry.flags & (TapeEntry.escaped | TapeEntry.nonASCII | TapeEntry.control) != 0 { throw FastMiss() }
        let value = nextKey + 1
        nextKey = document.next(after: value)
        guard let base = document.bytes.baseAddress else { throw FastMiss() }
        return (TapeKey(start: base + Int(entry.a), count: Int(entry.b - entry.a), end: base + document.bytes.count),
                value)
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
