#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A value the sloppy bcsvr wire may send in more than one JSON form.
///
/// The rules, pinned by `ForcibleTests`:
/// - `String`: a string, or a number of any size written out digit for digit (`1331546385` → `"1331546385"`).
/// - `Int`, `Double`: a number, or a string holding one (`"300"` → `300`).
/// - `Bool`: `true`/`false`, `0`/`1`, or `"0"`/`"1"` (also `"true"`/`"false"`).
/// - A Bool never stands in for a number or a string, and anything else is a `DecodingError.typeMismatch`
///   whose coding path names the key.
public protocol ForcibleValue: Hashable, Sendable {
    /// What the decoder accepts, in words, for error messages ("an integer or a numeric string").
    static var expectation: String { get }
    /// Reads the value from whichever JSON form the wire used.
    init(forcing container: any SingleValueDecodingContainer) throws
    /// Writes the value in its canonical wire form.
    func encodeCanonical(to container: inout any SingleValueEncodingContainer) throws
}

extension SingleValueDecodingContainer {
    /// The JSON value at this position, described for an error message: `"abc"`, `12`, `true`, `null`.
    func describeFound() -> String {
        if decodeNil() { return "null" }
        if let value = try? decode(Bool.self) { return String(value) }
        if let value = try? decode(String.self) { return "\"\(value.prefix(40))\"" }
        if let value = try? decode(Int64.self) { return String(value) }
        if let value = try? decode(Decimal.self) { return "\(value)" }
        if let value = try? decode(Double.self) { return String(value) }
        if (try? decode([JSONValue].self)) != nil { return "an array" }
        return "an object"
    }

    func mismatch<T: ForcibleValue>(_: T.Type) -> DecodingError {
        .typeMismatch(T.self, .init(
            codingPath: codingPath,
            debugDescription: "Expected \(T.expectation), found \(describeFound())."))
    }
}

/// A string, or a number of any size written out digit for digit.
extension String: ForcibleValue {
    public static var expectation: String { "a string or a number" }

    public init(forcing container: any SingleValueDecodingContainer) throws {
        if let string = try? container.decode(String.self) {
            self = string
        } else if (try? container.decode(Bool.self)) != nil {
            throw container.mismatch(String.self)
        } else if let int = try? container.decode(Int64.self) {
            self = String(int)
        } else if let uint = try? container.decode(UInt64.self) {
            self = String(uint)
        } else if let text = (container as? any JSONNumberTextDecoding)?.decodeNumberText() {
            self = text
        } else if let decimal = try? container.decode(Decimal.self) {
            // Above UInt64: Decimal keeps 38 significant digits, which covers every id seen.
            self = "\(decimal)"
        } else if let double = try? container.decode(Double.self) {
            self = String(double)
        } else {
            throw container.mismatch(String.self)
        }
    }

    public func encodeCanonical(to container: inout any SingleValueEncodingContainer) throws {
        try container.encode(self)
    }
}

/// A number, or a string holding one.
extension Int: ForcibleValue {
    public static var expectation: String { "an integer or a numeric string" }

    public init(forcing container: any SingleValueDecodingContainer) throws {
        if (try? container.decode(Bool.self)) != nil {
            throw container.mismatch(Int.self)
        } else if let int = try? container.decode(Int.self) {
            self = int
        } else if let string = try? container.decode(String.self) {
            guard let int = Int(string) else { throw container.mismatch(Int.self) }
            self = int
        } else if let double = try? container.decode(Double.self),
                  double.rounded() == double, let int = Int(exactly: double) {
            self = int
        } else {
            throw container.mismatch(Int.self)
        }
    }

    public func encodeCanonical(to container: inout any SingleValueEncodingContainer) throws {
        try container.encode(self)
    }
}

/// A number, or a string holding one.
extension Double: ForcibleValue {
    public static var expectation: String { "a number or a numeric string" }

    public init(forcing container: any SingleValueDecodingContainer) throws {
        if (try? container.decode(Bool.self)) != nil {
            throw container.mismatch(Double.self)
        } else if let double = try? container.decode(Double.self) {
            self = double
        } else if let string = try? container.decode(String.self) {
            guard let double = Double(string), double.isFinite else { throw container.mismatch(Double.self) }
            self = double
        } else {
            throw container.mismatch(Double.self)
        }
    }

    public func encodeCanonical(to container: inout any SingleValueEncodingContainer) throws {
        try container.encode(self)
    }
}

/// `true`/`false`, `0`/`1`, or `"0"`/`"1"` (also `"true"`/`"false"`).
extension Bool: ForcibleValue {
    public static var expectation: String { "a flag: true/false, 0/1 or \"0\"/\"1\"" }

    public init(forcing container: any SingleValueDecodingContainer) throws {
        if let bool = try? container.decode(Bool.self) {
            self = bool
        } else if let int = try? container.decode(Int.self) {
            switch int {
            case 0: self = false
            case 1: self = true
            default: throw container.mismatch(Bool.self)
            }
        } else if let string = try? container.decode(String.self) {
            switch string {
            case "0", "false": self = false
            case "1", "true": self = true
            default: throw container.mismatch(Bool.self)
            }
        } else {
            throw container.mismatch(Bool.self)
        }
    }

    /// Flags are written as `0`/`1`, the form the bcsvr wire uses for nearly all of them.
    public func encodeCanonical(to container: inout any SingleValueEncodingContainer) throws {
        try container.encode(self ? 1 : 0)
    }
}

/// The wrapped value's forms, or `null`.
extension Optional: ForcibleValue where Wrapped: ForcibleValue {
    public static var expectation: String { "\(Wrapped.expectation), or null" }

    public init(forcing container: any SingleValueDecodingContainer) throws {
        self = container.decodeNil() ? nil : try Wrapped(forcing: container)
    }

    public func encodeCanonical(to container: inout any SingleValueEncodingContainer) throws {
        if let value = self { try value.encodeCanonical(to: &container) } else { try container.encodeNil() }
    }
}

/// A decoder that can hand over a JSON number's literal text, so that ids longer than any integer type keep
/// every digit. BCStream's own JSON decoder adopts it; with any other decoder `ForcibleString` falls back to
/// `Decimal`.
public protocol JSONNumberTextDecoding {
    /// The literal text of the number at this position, or nil when it is not a number.
    func decodeNumberText() -> String?
}

/// An array whose elements are each forcible: `["14521944", 14796465]` decodes as `[String]` or `[Int]`.
extension Array: ForcibleValue where Element: ForcibleValue {
    public static var expectation: String { "an array of \(Element.expectation)" }

    public init(forcing container: any SingleValueDecodingContainer) throws {
        self = try container.decode([Forcible<Element>].self).map(\.wrappedValue)
    }

    public func encodeCanonical(to container: inout any SingleValueEncodingContainer) throws {
        try container.encode(map(Forcible.init(wrappedValue:)))
    }
}

/// An object whose values are each forcible: `wipe_cameras` reads `{"0": "orth,1.41,0.45"}` as `[String: String]`
/// whatever JSON form each value takes.
extension Dictionary: ForcibleValue where Key == String, Value: ForcibleValue {
    public static var expectation: String { "an object of \(Value.expectation)" }

    public init(forcing container: any SingleValueDecodingContainer) throws {
        self = try container.decode([String: Forcible<Value>].self).mapValues(\.wrappedValue)
    }

    public func encodeCanonical(to container: inout any SingleValueEncodingContainer) throws {
        try container.encode(mapValues(Forcible.init(wrappedValue:)))
    }
}
