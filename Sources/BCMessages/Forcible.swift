/// A property wrapper that decodes a value from any of the JSON forms the bcsvr wire uses for it, and encodes
/// it back in the canonical form. See `ForcibleValue` for the rules.
///
/// ```swift
/// @ForcibleString public var commentID: String      // "1049351080" or 1331546385
/// @OptionalForcibleInt public var totalCoins: Int?   // "25972", 25972, null or absent
/// ```
@propertyWrapper
public struct Forcible<Value: ForcibleValue>: Hashable, Sendable, Codable {
    /// The value, whatever form the wire sent it in.
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

/// A string sent as a string or as a number (kept digit for digit).
public typealias ForcibleString = Forcible<String>
/// An integer sent as a number or as a numeric string.
public typealias ForcibleInt = Forcible<Int>
/// A flag sent as `true`/`false`, `0`/`1` or `"0"`/`"1"`.
public typealias ForcibleBool = Forcible<Bool>
/// A number sent as a number or as a numeric string.
public typealias ForcibleDouble = Forcible<Double>
/// A `ForcibleString` that may be absent or null.
public typealias OptionalForcibleString = Forcible<String?>
/// A `ForcibleInt` that may be absent or null.
public typealias OptionalForcibleInt = Forcible<Int?>
/// A `ForcibleBool` that may be absent or null.
public typealias OptionalForcibleBool = Forcible<Bool?>
/// A `ForcibleDouble` that may be absent or null.
public typealias OptionalForcibleDouble = Forcible<Double?>

/// Optional forcible values read from an absent key as nil.
extension KeyedDecodingContainer {
    /// An optional forcible value: an absent key and `null` both give nil (synthesized `Decodable` would
    /// otherwise demand the key).
    public func decode<Wrapped>(_ type: Forcible<Wrapped?>.Type, forKey key: Key) throws -> Forcible<Wrapped?> {
        try decodeIfPresent(type, forKey: key) ?? Forcible(wrappedValue: nil)
    }
}

/// Optional forcible values that are nil left out.
extension KeyedEncodingContainer {
    /// An optional forcible value that is nil is left out, as the wire leaves out keys it does not send.
    public mutating func encode<Wrapped>(_ value: Forcible<Wrapped?>, forKey key: Key) throws {
        guard let wrapped = value.wrappedValue else { return }
        try encode(Forcible<Wrapped>(wrappedValue: wrapped), forKey: key)
    }
}

/// An array of forcible elements: `@ForcibleArray var userIDs: [String]` reads `["1", 2]` as `["1", "2"]`.
public typealias ForcibleArray<Element: ForcibleValue> = Forcible<[Element]>
/// A `ForcibleArray` that may be absent or null.
public typealias OptionalForcibleArray<Element: ForcibleValue> = Forcible<[Element]?>
