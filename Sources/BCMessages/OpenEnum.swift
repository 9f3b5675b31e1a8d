/// A small integer enum that keeps values it does not know (`case unrecognized(Int)`) instead of failing,
/// like swift-protobuf's enums: `yell_rank`, `collab_type`, the gift-gacha `type`. A conforming enum gives
/// only its cases and the two raw-value mappings; decoding (number or numeric string) and encoding come
/// from here.
public protocol OpenEnum: RawRepresentable, ForcibleValue, Codable where RawValue == Int {
    /// Every Int maps to a case: known values to theirs, any other to `unrecognized`.
    init(rawValue: Int)
}

extension OpenEnum {
    public static var expectation: String { Int.expectation }

    public init(forcing container: any SingleValueDecodingContainer) throws {
        self.init(rawValue: try Int(forcing: container))
    }

    public func encodeCanonical(to container: inout any SingleValueEncodingContainer) throws {
        try container.encode(rawValue)
    }

    /// Decodes a number or a numeric string; a value the enum does not know becomes `unrecognized`.
    public init(from decoder: any Decoder) throws {
        try self.init(forcing: decoder.singleValueContainer())
    }

    /// Encodes the raw value, as a number.
    public func encode(to encoder: any Encoder) throws {
        var container: any SingleValueEncodingContainer = encoder.singleValueContainer()
        try encodeCanonical(to: &container)
    }
}
