/// A property wrapper that decodes a value from any of the JSON forms the bcsvr wire uses for it, and encodes
/// it back in the canonical form. See `ForcibleValue` for the rules.
///
/// ```swift
/// @ForcibleString public var commentID: String      // "1049351080" or 1331546385
/// @OptionalForcibleInt public var totalCoins: Int?   // "25972", 25972, null or absent
/// ```
@propertyWrapper
public struct Forcible<Value: ForcibleValue>: Hashable, Sendable, Codable {
    public var wrappedValue: Value

    /// Always inlined: the generated extraction wraps every field in one (thirty-odd in a gift), and as a call each
    /// one stopped the struct from being built in place.
    @inline(__always)
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        wrappedValue = try Value(forcing: decoder.singleValueContainer())
    }

    public func encode(to encoder: any Encoder) throws {
        var container: any SingleValueEncodingContainer = encoder.singleValueContainer()
        try wrappedValue.encodeCanonical(to: &container)
    }
}

extension Forcible: CustomStringConvertible {
    public var description: String { String(describing: wrappedValue) }
}

public typealias ForcibleString = Forcible<String>
public typealias ForcibleInt = Forcible<Int>
public typealias ForcibleBool = Forcible<Bool>
public typealias ForcibleDouble = Forcible<Double>
public typealias OptionalForcibleString = Forcible<String?>
public typealias OptionalForcibleInt = Forcible<Int?>
public typealias OptionalForcibleBool = Forcible<Bool?>
public typealias OptionalForcibleDouble = Forcible<Double?>

extension KeyedDecodingContainer {
    /// An optional forcible value: an absent key and `null` both give nil (synthesized `Decodable` would
    /// otherwise demand the key).
    public func decode<Wrapped>(_ type: Forcible<Wrapped?>.Type, forKey key: Key) throws -> Forcible<Wrapped?> {
        try decodeIfPresent(type, forKey: key) ?? Forcible(wrappedValue: nil)
    }
}

extension KeyedEncodingContainer {
    /// An optional forcible value that is nil is left out, as the wire leaves out keys it does not send.
    public mutating func encode<Wrapped>(_ value: Forcible<Wrapped?>, forKey key: Key) throws {
        guard let wrapped = value.wrappedValue else { return }
        try encode(Forcible<Wrapped>(wrappedValue: wrapped), forKey: key)
    }
}

/// An array of forcible elements: `@ForcibleArray var userIDs: [String]` reads `["1", 2]` as `["1", "2"]`.
public typealias ForcibleArray<Element: ForcibleValue> = Forcible<[Element]>
public typealias OptionalForcibleArray<Element: ForcibleValue> = Forcible<[Element]?>
