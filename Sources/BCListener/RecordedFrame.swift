#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One frame as received, the unit of a recording: one NDJSON line.
///
/// ```
/// {"key":"118f91f:UdoBre1M","text":"MSG\t118f91f:UdoBre1M\t{…}","time":"2026-11-22T02:30:11.123Z"}
/// {"binary":true,"bytes":"AAEC","key":"…","time":"…"}
/// {"bytes":"TVNH…","key":"…","refused":"larger than 1048576 bytes","size":2000000,"time":"…","truncated":true}
/// ```
///
/// A text frame keeps its exact text (ACK, ERR and frames that do not decode included), so a replay sends the
/// same bytes. Anything else keeps its bytes, in base64: a binary frame (`binary`), a text frame that is not
/// UTF-8, and a message the listener refused (`refused`, the reason), of which a message too big keeps its
/// first 64 KiB (`truncated`, with the `size` that arrived). `time` is when it was received, with
/// milliseconds, so a replay keeps the pace.
public struct RecordedFrame: Hashable, Sendable, Codable {
    /// What the frame carried.
    public enum Content: Hashable, Sendable {
        /// A whole text frame.
        case text(String)
        /// Bytes that are not a whole UTF-8 text frame.
        case bytes([UInt8])
    }

    /// When the frame was received.
    public var time: Date
    /// The channel key the session was subscribed to.
    public var key: String
    /// The frame's text or bytes.
    public var content: Content
    /// The frame was a binary frame.
    public var binary: Bool
    /// Why the listener refused the message and closed the connection, if it did.
    public var refused: String?
    /// The message's size as far as it arrived, when `content` holds only its start.
    public var size: Int?

    /// A text frame.
    public init(time: Date, key: String, text: String) {
        self.init(time: time, key: key, content: .text(text))
    }

    /// A frame received at `time` on channel `key`, a text frame unless `binary`, accepted unless `refused` says
    /// why not.
    public init(time: Date, key: String, content: Content, binary: Bool = false, refused: String? = nil,
                size: Int? = nil) {
        self.time = time
        self.key = key
        self.content = content
        self.binary = binary
        self.refused = refused
        self.size = size
    }

    /// The frame's text; bytes that are not UTF-8 are shown with replacement characters.
    public var text: String {
        switch content {
        case .text(let text): text
        case .bytes(let bytes): String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The frame's exact bytes.
    public var bytes: [UInt8] {
        switch content {
        case .text(let text): Array(text.utf8)
        case .bytes(let bytes): bytes
        }
    }

    /// True when only the start of the message was kept.
    public var truncated: Bool { size != nil }

    enum CodingKeys: String, CodingKey {
        case time, key, text, bytes, binary, refused, size, truncated
    }

    private static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The time as `listen --record` writes it, `2026-11-22T02:30:11.123Z` exactly, read without the ISO 8601
    /// parser (most of what loading a recording cost after the JSON); nil for any other shape, which the parser
    /// then reads. Only dates the parser accepts the same way are taken: years 1970–9999, valid days, no leap
    /// second.
    static func recordedTime(_ stamp: String) -> Date? {
        var stamp = stamp
        return stamp.withUTF8 { bytes -> Date? in
            guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                  bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
                  bytes[19] == UInt8(ascii: "."), bytes[23] == UInt8(ascii: "Z")
            else { return nil }
            func number(_ start: Int, _ length: Int) -> Int? {
                var value = 0
                for index in start..<start + length {
                    let digit = bytes[index] &- UInt8(ascii: "0")
                    guard digit < 10 else { return nil }
                    value = value * 10 + Int(digit)
                }
                return value
            }
            guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
                  let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
                  let millisecond = number(20, 3),
                  year >= 1970, (1...12).contains(month), hour < 24, minute < 60, second < 60
            else { return nil }
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
            guard (1...daysInMonth).contains(day) else { return nil }
            // Days since 1970-01-01 of a proleptic Gregorian date (the civil-from-days inverse).
            let y = month <= 2 ? year - 1 : year
            let era = y / 400
            let yearOfEra = y - era * 400
            let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            let days = era * 146_097 + dayOfEra - 719_468
            let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
            return Date(timeIntervalSince1970: Double(seconds) + Double(millisecond) / 1_000)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let stamp = try container.decode(String.self, forKey: .time)
        guard let time = Self.recordedTime(stamp) ?? (try? Self.timeFormat.parse(stamp))
                ?? (try? Date.ISO8601FormatStyle().parse(stamp)) else {
            throw DecodingError.dataCorruptedError(
                forKey: .time, in: container,
                debugDescription: "Expected an ISO 8601 time like 2026-11-22T02:30:11.123Z, found \"\(stamp)\".")
        }
        self.time = time
        key = try container.decode(String.self, forKey: .key)
        if let base64 = try container.decodeIfPresent(String.self, forKey: .bytes) {
            guard let data = Data(base64Encoded: base64) else {
                throw DecodingError.dataCorruptedError(forKey: .bytes, in: container,
                                                       debugDescription: "Expected base64 bytes.")
            }
            content = .bytes(Array(data))
        } else {
            content = .text(try container.decode(String.self, forKey: .text))
        }
        binary = try container.decodeIfPresent(Bool.self, forKey: .binary) ?? false
        refused = try container.decodeIfPresent(String.self, forKey: .refused)
        size = try container.decodeIfPresent(Int.self, forKey: .size)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(time.formatted(Self.timeFormat), forKey: .time)
        try container.encode(key, forKey: .key)
        switch content {
        case .text(let text): try container.encode(text, forKey: .text)
        case .bytes(let bytes): try container.encode(Data(bytes).base64EncodedString(), forKey: .bytes)
        }
        if binary { try container.encode(true, forKey: .binary) }
        try container.encodeIfPresent(refused, forKey: .refused)
        if let size {
            try container.encode(size, forKey: .size)
            try container.encode(true, forKey: .truncated)
        }
    }

    /// The frame as one NDJSON line, without the newline.
    public func line() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
