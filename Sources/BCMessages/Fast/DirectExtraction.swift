/// Direct extraction: every kind's fields read straight off the tape by key, with no `Decoder`, no containers
/// and no existentials. Each payload struct's `init(tape:)` is generated beside it from the catalogue
/// (`Catalogue/`), out of the reads below; the two kinds kept whole (`Unknown`, `EmomoQuestGift`) are here.
///
/// Each `init(tape:)` must build exactly what the kind's `init(from:)` builds. It only ever takes the happy
/// path: at the first irregularity (a key missing, a value no rule accepts) it throws `FastMiss`, and the
/// engine decodes the message again through `init(from:)` over the tape, which gives the precise error (or,
/// should the two ever disagree, the reference value). `FastEngineEquivalenceTests` compares the two.
struct FastMiss: Error {}

/// An object of the tape, read by key with the `Forcible` rules.
struct TapeObject {
    let document: TapeDocument
    let table: TapeDocument.MemberTable

    init(_ document: TapeDocument, at index: Int32) throws(FastMiss) {
        guard document.entries[Int(index)].kind == .object else { throw FastMiss() }
        self.document = document
        table = document.memberTable(of: index)
        if table.hasInvalidKey { throw FastMiss() }
    }

    /// The value for a key that must be there and not null.
    @inline(__always)
    private func present(_ key: StaticString) throws(FastMiss) -> Int32 {
        guard let index = document.value(forKey: key, in: table), document.entries[Int(index)].kind != .null
        else { throw FastMiss() }
        return index
    }

    /// The value for an optional key: nil when absent or null.
    @inline(__always)
    private func optional(_ key: StaticString) -> Int32? {
        guard let index = document.value(forKey: key, in: table), document.entries[Int(index)].kind != .null
        else { return nil }
        return index
    }

    @inline(__always)
    private func read<Value>(_ index: Int32, _ rule: (Int32) -> Value?) throws(FastMiss) -> Value {
        guard let value = rule(index) else { throw FastMiss() }
        return value
    }

    // The reads call the document's rules directly: passing `document.forceString` as a closure would capture
    // the document, a retain and a release per field.
    func string(_ key: StaticString) throws(FastMiss) -> String {
        guard let value = document.forceString(at: try present(key)) else { throw FastMiss() }
        return value
    }

    func int(_ key: StaticString) throws(FastMiss) -> Int {
        guard let value = document.forceInt(at: try present(key)) else { throw FastMiss() }
        return value
    }

    func bool(_ key: StaticString) throws(FastMiss) -> Bool {
        guard let value = document.forceBool(at: try present(key)) else { throw FastMiss() }
        return value
    }

    func double(_ key: StaticString) throws(FastMiss) -> Double {
        guard let value = document.forceDouble(at: try present(key)) else { throw FastMiss() }
        return value
    }

    func optionalString(_ key: StaticString) throws(FastMiss) -> String? {
        guard let index = optional(key) else { return nil }
        guard let value = document.forceString(at: index) else { throw FastMiss() }
        return value
    }

    func optionalInt(_ key: StaticString) throws(FastMiss) -> Int? {
        guard let index = optional(key) else { return nil }
        guard let value = document.forceInt(at: index) else { throw FastMiss() }
        return value
    }

    func optionalBool(_ key: StaticString) throws(FastMiss) -> Bool? {
        guard let index = optional(key) else { return nil }
        guard let value = document.forceBool(at: index) else { throw FastMiss() }
        return value
    }

    func optionalDouble(_ key: StaticString) throws(FastMiss) -> Double? {
        guard let index = optional(key) else { return nil }
        guard let value = document.forceDouble(at: index) else { throw FastMiss() }
        return value
    }

    /// A nested object that must be there (`var x: T`).
    func object(_ key: StaticString) throws(FastMiss) -> TapeObject { try TapeObject(document, at: try present(key)) }

    /// A nested object that may be absent or null (`var x: T?`).
    func optionalObject(_ key: StaticString) throws(FastMiss) -> TapeObject? {
        guard let index = optional(key) else { return nil }
        return try TapeObject(document, at: index)
    }

    /// An array of forcible elements that must be there (`@ForcibleArray var x: [String]`).
    func forcedArray<Element>(_ key: StaticString, _ rule: (Int32) -> Element?) throws(FastMiss) -> [Element] {
        try forcedElements(try present(key), rule)
    }

    /// An optional array of forcible elements (`@OptionalForcibleArray var x: [Int]?`).
    func optionalForcedArray<Element>(_ key: StaticString, _ rule: (Int32) -> Element?) throws(FastMiss) -> [Element]? {
        guard let index = optional(key) else { return nil }
        return try forcedElements(index, rule)
    }

    private func forcedElements<Element>(_ index: Int32, _ rule: (Int32) -> Element?) throws(FastMiss) -> [Element] {
        guard document.entries[Int(index)].kind == .array else { throw FastMiss() }
        var result: [Element] = []
        result.reserveCapacity(Int(document.entries[Int(index)].b))
        var element = index + 1
        for _ in 0..<document.entries[Int(index)].b {
            guard document.entries[Int(element)].kind != .null else { throw FastMiss() }
            result.append(try read(element, rule))
            element = document.next(after: element)
        }
        return result
    }

    /// An optional object of forcible strings (`@Forcible var x: [String: String]?`); the first of duplicate
    /// keys wins.
    func optionalStringDictionary(_ key: StaticString) throws(FastMiss) -> [String: String]? {
        guard let index = optional(key) else { return nil }
        guard document.entries[Int(index)].kind == .object else { throw FastMiss() }
        var result: [String: String] = [:]
        var member = index + 1
        for _ in 0..<document.entries[Int(index)].b {
            guard let name = document.string(at: member) else { throw FastMiss() }
            if result[name] == nil {
                guard document.entries[Int(member + 1)].kind != .null else { throw FastMiss() }
                result[name] = try read(member + 1, document.forceString)
            }
            member = document.next(after: member + 1)
        }
        return result
    }

    /// An array of objects that must be there (`var x: [T]`).
    func objects<T>(_ key: StaticString, _ make: (TapeObject) throws(FastMiss) -> T) throws(FastMiss) -> [T] {
        guard let objects = try optionalObjects(key, make) else { throw FastMiss() }
        return objects
    }

    /// The whole object as `JSONValue`s, as `[String: JSONValue](from:)` reads it.
    func jsonObject() throws(FastMiss) -> [String: JSONValue] {
        guard let index = table.objectIndex, case .object(let members)? = try? document.jsonValue(at: index)
        else { throw FastMiss() }
        return members
    }

    /// An optional array of objects (`var x: [T]?`, each element required).
    func optionalObjects<T>(_ key: StaticString, _ make: (TapeObject) throws(FastMiss) -> T) throws(FastMiss) -> [T]? {
        guard let index = optional(key) else { return nil }
        guard document.entries[Int(index)].kind == .array else { throw FastMiss() }
        var result: [T] = []
        result.reserveCapacity(Int(document.entries[Int(index)].b))
        var element = index + 1
        for _ in 0..<document.entries[Int(index)].b {
            result.append(try make(try TapeObject(document, at: element)))
            element = document.next(after: element)
        }
        return result
    }
}

extension BCResponse.Unknown {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(t: try object.int("t"), json: try object.jsonObject())
    }
}

extension BCResponse.EmomoQuestGift {
    init(tape object: TapeObject) throws(FastMiss) {
        var fields = try object.jsonObject()
        fields.removeValue(forKey: "t")
        self.init(fields: fields)
    }
}
