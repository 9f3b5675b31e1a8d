#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Any `Decodable` read with the fast engine's `Decoder` over its tape: the values `JSONDecoder` gives, for JSON
/// in UTF-8, at a fraction of the cost on text with escapes. Errors are not JSONDecoder's words: a caller that
/// reports them decodes again with `JSONDecoder` when this throws (as `RecordingParser` does).
public struct TapeJSONDecoder: Sendable {
    /// A decoder; it keeps no state between calls.
    public init() {}

    /// Decodes a value of `type` from UTF-8 JSON, as `JSONDecoder.decode(_:from:)` would.
    public func decode<T: Decodable>(_ type: T.Type, from json: Data) throws -> T {
        try FastEngine.decodeValue(type, from: json)
    }

    /// As `decode(_:from:)`, from bytes in place (a line of a larger text, say), without copying them.
    public func decode<T: Decodable>(_ type: T.Type, from json: UnsafeRawBufferPointer) throws -> T {
        try FastEngine.decodeValue(type, from: json.assumingMemoryBound(to: UInt8.self))
    }
}
