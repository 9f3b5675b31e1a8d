#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One frame as received, the unit of a recording: one NDJSON line
/// `{"time":"2026-11-22T02:30:11.123Z","key":"118f91f:UdoBre1M","text":"MSG\t118f91f:UdoBre1M\t{…}"}`.
///
/// `text` is the frame exactly as it arrived (ACK, ERR and frames that do not decode included), so a replay
/// sends the same bytes; `time` is when it was received, with milliseconds, so a replay keeps the pace.
public struct RecordedFrame: Hashable, Sendable, Codable {
    /// When the frame was received.
    public var time: Date
    /// The channel key the session was subscribed to.
    public var key: String
    /// The frame's exact text.
    public var text: String

    public init(time: Date, key: String, text: String) {
        self.time = time
        self.key = key
        self.text = text
    }

    enum CodingKeys: String, CodingKey {
        case time, key, text
    }

    private static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let stamp = try container.decode(String.self, forKey: .time)
        guard let time = (try? Self.timeFormat.parse(stamp)) ?? (try? Date.ISO8601FormatStyle().parse(stamp)) else {
            throw DecodingError.dataCorruptedError(
                forKey: .time, in: container,
                debugDescription: "Expected an ISO 8601 time like 2026-11-22T02:30:11.123Z, found \"\(stamp)\".")
        }
        self.time = time
        key = try container.decode(String.self, forKey: .key)
        text = try container.decode(String.self, forKey: .text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(time.formatted(Self.timeFormat), forKey: .time)
        try container.encode(key, forKey: .key)
        try container.encode(text, forKey: .text)
    }

    /// The frame as one NDJSON line, without the newline.
    public func line() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
