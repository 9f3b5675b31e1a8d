#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `Decoder` over a scanned message: the fast engine runs the payloads' own `init(from:)` (so every struct
/// keeps one definition of its keys), with Foundation's semantics for every primitive, and reads `Forcible`
/// values by the JSON kind of the value rather than by probing with throwing decodes.
///
/// Small by design (a reference and an index), so that passing it as `any Decoder` allocates nothing.
struct TapeDecoder: Decoder {
    let document: TapeDocument
    let index: Int32

    var codingPath: [any CodingKey] { document.codingPath(to: index) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch document.entries[Int(index)].kind {
        case .object:
            let table = document.memberTable(of: index)
            guard !table.hasInvalidKey else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath,
                                                        debugDescription: "The given data was not valid JSON."))
            }
            return KeyedDecodingContainer(TapeKeyedContainer<Key>(document: document, object: index, table: table))
        case .null:
            throw DecodingError.valueNotFound([String: Any].self, .init(
                codingPath: codingPath,
                debugDescription: "Cannot get keyed decoding container -- found null value instead"))
        default:
            throw document.mismatch([String: Any].self, at: index, "Expected to decode Dictionary<String, Any>")
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch document.entries[Int(index)].kind {
        case .array:
            return TapeUnkeyedContainer(document: document, array: index)
        case .null:
            throw DecodingError.valueNotFound([Any].self, .init(
                codingPath: codingPath,
                debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
        default:
            throw document.mismatch([Any].self, at: index, "Expected to decode Array<Any>")
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TapeSingleValueContainer(document: document, index: index)
    }
}

extension TapeDocument {
    /// Decodes the value at `index` as `T`: the payload types' hot leaves directly, anything else through its
    /// own `init(from:)` over a `TapeDecoder`.
    func decode<T: Decodable>(_ type: T.Type, at index: Int32) throws -> T {
        if let value = try decodeLeaf(type, at: index) { return value }
        if T.self == Decimal.self {
            // Decimal is a JSON number here, as in Foundation, not its keyed Codable form.
            return try TapeSingleValueContainer(document: self, index: index).decode(type)
        }
        return try T(from: TapeDecoder(document: self, index: index))
    }

    /// The `Forcible` scalars, the open enums and `JSONValue`, read by the kind of the value. Nil for any other
    /// type. Each branch produces a value of exactly `T` (compared by metatype identity), hence the bit casts.
    @inline(__always)
    private func decodeLeaf<T: Decodable>(_ type: T.Type, at index: Int32) throws -> T? {
        let id = ObjectIdentifier(T.self)
        let leaves = LeafTypes.shared
        if id == leaves.optionalString {
            let value = Forcible<String?>(wrappedValue: try optional(at: index, forceString, String.self))
            return unsafeBitCast(value, to: T.self)
        }
        if id == leaves.string {
            let value = Forcible<String>(wrappedValue: try required(at: index, forceString, String.self))
            return unsafeBitCast(value, to: T.self)
        }
        if id == leaves.optionalInt {
            let value = Forcible<Int?>(wrappedValue: try optional(at: index, forceInt, Int.self))
            return unsafeBitCast(value, to: T.self)
        }
        if id == leaves.int {
            let value = Forcible<Int>(wrappedValue: try required(at: index, forceInt, Int.self))
            return unsafeBitCast(value, to: T.self)
        }
        if id == leaves.optionalBool {
            let value = Forcible<Bool?>(wrappedValue: try optional(at: index, forceBool, Bool.self))
            return unsafeBitCast(value, to: T.self)
        }
        if id == leaves.bool {
            let value = Forcible<Bool>(wrappedValue: try required(at: index, forceBool, Bool.self))
            return unsafeBitCast(value, to: T.self)
        }
        if id == leaves.optionalDouble {
            let value = Forcible<Double?>(wrappedValue: try optional(at: index, forceDouble, Double.self))
            return unsafeBitCast(value, to: T.self)
        }
        if id == leaves.double {
            let value = Forcible<Double>(wrappedValue: try required(at: index, forceDouble, Double.self))
            return unsafeBitCast(value, to: T.self)
        }
        if id == leaves.yellRank {
            return unsafeBitCast(YellRank(rawValue: try required(at: index, forceInt, Int.self)), to: T.self)
        }
        if id == leaves.optionalYellRank {
            let rank = try optional(at: index, forceInt, Int.self).map(YellRank.init(rawValue:))
            return unsafeBitCast(Forcible<YellRank?>(wrappedValue: rank), to: T.self)
        }
        if id == leaves.collabType {
            return unsafeBitCast(CollabType(rawValue: try required(at: index, forceInt, Int.self)), to: T.self)
        }
        if id == leaves.giftGachaType {
            return unsafeBitCast(GiftGachaType(rawValue: try required(at: index, forceInt, Int.self)), to: T.self)
        }
        if id == leaves.jsonValue {
            return unsafeBitCast(try jsonValue(at: index), to: T.self)
        }
        // Arrays and objects of forcible values: only the regular case here; anything else (null, a wrong kind, a
        // bad element) goes through the generic path, which gives Foundation's exact errors.
        if id == leaves.strings, let strings = forcedArray(at: index, forceString) {
            return unsafeBitCast(Forcible<[String]>(wrappedValue: strings), to: T.self)
        }
        if id == leaves.optionalStrings, let strings = forcedArray(at: index, forceString) {
            return unsafeBitCast(Forcible<[String]?>(wrappedValue: strings), to: T.self)
        }
        if id == leaves.optionalInts, let ints = forcedArray(at: index, forceInt) {
            return unsafeBitCast(Forcible<[Int]?>(wrappedValue: ints), to: T.self)
        }
        if id == leaves.optionalStringDictionary, let strings = forcedDictionary(at: index, forceString) {
            return unsafeBitCast(Forcible<[String: String]?>(wrappedValue: strings), to: T.self)
        }
        return nil
    }

    private func forcedArray<Element>(at index: Int32, _ read: (Int32) -> Element?) -> [Element]? {
        let entry = entries[Int(index)]
        guard entry.kind == .array else { return nil }
        var result: [Element] = []
        result.reserveCapacity(Int(entry.b))
        var element = index + 1
        for _ in 0..<entry.b {
            guard entries[Int(element)].kind != .null, let value = read(element) else { return nil }
            result.append(value)
            element = next(after: element)
        }
        return result
    }

    private func forcedDictionary<Value>(at index: Int32, _ read: (Int32) -> Value?) -> [String: Value]? {
        let entry = entries[Int(index)]
        guard entry.kind == .object else { return nil }
        var result: [String: Value] = [:]
        result.reserveCapacity(Int(entry.b))
        var key = index + 1
        for _ in 0..<entry.b {
            // The first of duplicate keys wins; a later duplicate is never read.
            guard let name = string(at: key) else { return nil }
            if result[name] == nil {
                guard entries[Int(key + 1)].kind != .null, let value = read(key + 1) else { return nil }
                result[name] = value
            }
            key = next(after: key + 1)
        }
        return result
    }

    @inline(__always)
    private func required<Value: ForcibleValue>(
        at index: Int32, _ read: (Int32) -> Value?, _ type: Value.Type
    ) throws -> Value {
        if let value = read(index) { return value }
        throw forcingMismatch(Value.self, at: index)
    }

    @inline(__always)
    private func optional<Value: ForcibleValue>(
        at index: Int32, _ read: (Int32) -> Value?, _ type: Value.Type
    ) throws -> Value? {
        if entries[Int(index)].kind == .null { return nil }
        if let value = read(index) { return value }
        throw forcingMismatch(Value.self, at: index)
    }

    /// The error `ForcibleValue.mismatch` throws, with the same type, path and words.
    func forcingMismatch<Value: ForcibleValue>(_: Value.Type, at index: Int32) -> DecodingError {
        TapeSingleValueContainer(document: self, index: index).mismatch(Value.self)
    }
}

struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let document: TapeDocument
    let object: Int32
    let table: TapeDocument.MemberTable

    var codingPath: [any CodingKey] { document.codingPath(to: object) }

    /// Only a dictionary asks for every key. Its keys give numeric strings an int value (`"0"` is key 0), and
    /// Foundation's coding paths show them as `[0]`: the object is marked so that error paths do too.
    /// Each distinct key once, as Foundation's: a dictionary decodes the value of each key it is given, and a
    /// key given once per duplicate would have the first value decoded again for every one.
    var allKeys: [Key] {
        var seen = Set<String>()
        var keys: [Key] = []
        for member in document.memberIndices(of: object) {
            document.work += 1
            guard let name = document.string(at: member.key), seen.insert(name).inserted,
                  let key = Key(stringValue: name)
            else { continue }
            keys.append(key)
        }
        if keys.contains(where: { $0.intValue != nil }) { document.markIntegerKeys(object) }
        return keys
    }

    func contains(_ key: Key) -> Bool {
        document.value(forKey: key.stringValue, in: table) != nil
    }

    @inline(__always)
    private func valueIndex(for key: Key) throws -> Int32 {
        guard let index = document.value(forKey: key.stringValue, in: table) else {
            throw DecodingError.keyNotFound(key, .init(
                codingPath: codingPath,
                debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return index
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        document.entries[Int(try valueIndex(for: key))].kind == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try document.decode(type, at: try valueIndex(for: key))
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = document.value(forKey: key.stringValue, in: table),
              document.entries[Int(index)].kind != .null
        else { return nil }
        return try document.decode(type, at: index)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try primitive(forKey: key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try primitive(forKey: key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try primitive(forKey: key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try primitive(forKey: key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try primitive(forKey: key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try primitive(forKey: key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try primitive(forKey: key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try primitive(forKey: key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try primitive(forKey: key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try primitive(forKey: key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try primitive(forKey: key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try primitive(forKey: key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try primitive(forKey: key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try primitive(forKey: key).decode(type) }

    private func primitive(forKey key: Key) throws -> TapeSingleValueContainer {
        TapeSingleValueContainer(document: document, index: try valueIndex(for: key))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try TapeDecoder(document: document, index: try valueIndex(for: key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try TapeDecoder(document: document, index: try valueIndex(for: key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        TapeDecoder(document: document, index: object)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        TapeDecoder(document: document, index: try valueIndex(for: key))
    }
}

struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let document: TapeDocument
    let array: Int32
    /// The tape index of the next element.
    private var position: Int32
    private(set) var currentIndex = 0

    init(document: TapeDocument, array: Int32) {
        self.document = document
        self.array = array
        position = array + 1
    }

    var codingPath: [any CodingKey] { document.codingPath(to: array) }
    var count: Int? { Int(document.entries[Int(array)].b) }
    var isAtEnd: Bool { currentIndex >= Int(document.entries[Int(array)].b) }

    private func checkNotAtEnd(_ type: Any.Type) throws {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(
                codingPath: codingPath + [TapeCodingKey(intValue: currentIndex)],
                debugDescription: "Unkeyed container is at end."))
        }
    }

    private mutating func advance() {
        position = document.next(after: position)
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        try checkNotAtEnd(Never.self)
        guard document.entries[Int(position)].kind == .null else { return false }
        advance()
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try checkNotAtEnd(type)
        let value = try document.decode(type, at: position)
        advance()
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try primitive { try $0.decode(type) } }
    mutating func decode(_ type: String.Type) throws -> String { try primitive { try $0.decode(type) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try primitive { try $0.decode(type) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try primitive { try $0.decode(type) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try primitive { try $0.decode(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try primitive { try $0.decode(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try primitive { try $0.decode(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try primitive { try $0.decode(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try primitive { try $0.decode(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try primitive { try $0.decode(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try primitive { try $0.decode(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try primitive { try $0.decode(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try primitive { try $0.decode(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try primitive { try $0.decode(type) } }

    private mutating func primitive<T>(_ read: (TapeSingleValueContainer) throws -> T) throws -> T {
        try checkNotAtEnd(T.self)
        let value = try read(TapeSingleValueContainer(document: document, index: position))
        advance()
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try checkNotAtEnd(KeyedDecodingContainer<NestedKey>.self)
        let container = try TapeDecoder(document: document, index: position).container(keyedBy: type)
        advance()
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try checkNotAtEnd((any UnkeyedDecodingContainer).self)
        let container = try TapeDecoder(document: document, index: position).unkeyedContainer()
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        try checkNotAtEnd((any Decoder).self)
        let decoder = TapeDecoder(document: document, index: position)
        advance()
        return decoder
    }
}

/// One value, read with Foundation's semantics: each primitive decode succeeds or fails exactly where
/// `JSONDecoder`'s does, so code that probes (`try? container.decode(Int.self)`) behaves the same on both.
struct TapeSingleValueContainer: SingleValueDecodingContainer, JSONNumberTextDecoding {
    let document: TapeDocument
    let index: Int32

    var codingPath: [any CodingKey] { document.codingPath(to: index) }

    private var kind: TapeEntry.Kind { document.entries[Int(index)].kind }

    func decodeNil() -> Bool { kind == .null }

    private func failure(_ type: Any.Type) -> DecodingError {
        if kind == .null {
            return .valueNotFound(type, .init(codingPath: codingPath,
                                              debugDescription: "Expected \(type) value but found null instead."))
        }
        if kind == .number || kind == .string {
            return .dataCorrupted(.init(codingPath: codingPath, debugDescription: "The given data was not valid JSON."))
        }
        return document.mismatch(type, at: index, "Expected to decode \(type)")
    }

    private func typeFailure(_ type: Any.Type) -> DecodingError {
        kind == .null ? failure(type) : document.mismatch(type, at: index, "Expected to decode \(type)")
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        switch kind {
        case .true: return true
        case .false: return false
        default: throw typeFailure(type)
        }
    }

    func decode(_ type: String.Type) throws -> String {
        guard kind == .string else { throw typeFailure(type) }
        guard let string = document.string(at: index) else { throw failure(type) }
        return string
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard kind == .number else { throw typeFailure(type) }
        guard let double = document.double(at: index) else { throw failure(type) }
        return double
    }

    func decode(_ type: Float.Type) throws -> Float {
        guard kind == .number else { throw typeFailure(type) }
        guard let double = document.double(at: index), Float(double).isFinite else { throw failure(type) }
        return Float(double)
    }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard kind == .number else { throw typeFailure(type) }
        if let value = document.integer(I.self, at: index) { return value }
        throw failure(type)
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Decimal.self {
            guard kind == .number else { throw typeFailure(type) }
            guard let decimal = document.decimal(at: index) else { throw failure(type) }
            // The same type: `T.self == Decimal.self` was just checked.
            return unsafeBitCast(decimal, to: T.self)
        }
        return try document.decode(type, at: index)
    }

    func decodeNumberText() -> String? {
        document.integerText(at: index)
    }
}

/// The identities of the leaf types `TapeDocument.decode` reads directly, looked up once: asking the runtime
/// for `Forcible<String?>.self` in generic code is a metadata-cache lookup every time.
struct LeafTypes: Sendable {
    let optionalString = ObjectIdentifier(Forcible<String?>.self)
    let string = ObjectIdentifier(Forcible<String>.self)
    let optionalInt = ObjectIdentifier(Forcible<Int?>.self)
    let int = ObjectIdentifier(Forcible<Int>.self)
    let optionalBool = ObjectIdentifier(Forcible<Bool?>.self)
    let bool = ObjectIdentifier(Forcible<Bool>.self)
    let optionalDouble = ObjectIdentifier(Forcible<Double?>.self)
    let double = ObjectIdentifier(Forcible<Double>.self)
    let yellRank = ObjectIdentifier(YellRank.self)
    let optionalYellRank = ObjectIdentifier(Forcible<YellRank?>.self)
    let collabType = ObjectIdentifier(CollabType.self)
    let giftGachaType = ObjectIdentifier(GiftGachaType.self)
    let jsonValue = ObjectIdentifier(JSONValue.self)
    let strings = ObjectIdentifier(Forcible<[String]>.self)
    let optionalStrings = ObjectIdentifier(Forcible<[String]?>.self)
    let optionalInts = ObjectIdentifier(Forcible<[Int]?>.self)
    let optionalStringDictionary = ObjectIdentifier(Forcible<[String: String]?>.self)

    static let shared = LeafTypes()
}
