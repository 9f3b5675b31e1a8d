import BCListener
import Foundation

/// What one line of `bcstream decode`'s input (and `bcstream-bench --corpus FILE`'s) holds, detected per line, so
/// that one file may mix the shapes:
///
/// ```
/// {"t":23,"online_viewer_num":44}                                    → a message (bare JSON)
/// MSG\t118f91f:UdoBre1M\t{"t":8}                                      → a message, with its channel key
/// ACK, ERR\tbad key, PING, SUB\tk:1                                   → a bcsvr line that is no message: skipped
/// {"key":"k:1","text":"MSG\tk:1\t{\"t\":8}","time":"2026-…Z"}        → a recorded frame (`listen --record`):
///                                                                       the bcsvr lines of its text, as above
/// {"binary":true,"bytes":"AAEC","key":"k:1","time":"…"}               → not decodable: a binary frame
/// {"bytes":"TVNH…","key":"k:1","refused":"larger than …","time":"…"}  → not decodable: a refused message
/// a line that is not UTF-8, or longer than the line limit             → not decodable (`LineReader`)
/// ```
///
/// Anything else that is not blank is meant as a message: when it is not one (`[1,2]`, `garbage`), the decoder
/// says why. A recorded frame is told from a message by its keys: `time` and `key`, and no `t`.
public enum DecodeInput: Hashable, Sendable {
    /// A message to decode: its JSON, and the channel key of the `MSG` line that carried it.
    case message(json: String, key: String?)
    /// A bcsvr line that carries no message (`ACK`, `ERR…`, a command such as `PING`): counted, not decoded.
    case skipped
    /// Something that was received or written as a message but cannot be decoded: why, in words, and its raw
    /// text (exact when it is text; `nil` when it is not kept, as for an over-long line).
    case notDecodable(reason: String, raw: String?, key: String?)

    /// What one line holds, already without its line break: nothing for a blank line, several items for a
    /// recorded frame whose text holds several bcsvr lines.
    public static func detect(_ line: String, decoder: JSONDecoder = JSONDecoder()) -> [DecodeInput] {
        let trimmed = trimmed(line)
        guard !trimmed.isEmpty else { return [] }
        if trimmed.hasPrefix("{") {
            if looksLikeRecordedFrame(trimmed) { return recordedFrame(trimmed, decoder: decoder) }
            return [.message(json: trimmed, key: nil)]
        }
        return [bcsvrLine(trimmed)]
    }

    /// A line that is not UTF-8: reported with the first bad byte, every such byte shown as `\xE9`.
    public static func notUTF8(_ bytes: some Collection<UInt8>) -> DecodeInput {
        let (text, firstBad) = escapingInvalidUTF8(bytes)
        let at = firstBad.map { " (byte \(hex($0.value)) at byte \($0.offset + 1) of the line)" } ?? ""
        return .notDecodable(reason: "not UTF-8 text\(at)", raw: text, key: nil)
    }

    /// A line longer than `LineReader`'s limit; its text was not kept.
    public static func tooLong(bytes: Int, limit: Int) -> DecodeInput {
        .notDecodable(reason: "a line of \(bytes) bytes, longer than the \(limit >> 20) MiB a line may hold; skipped",
                      raw: nil, key: nil)
    }

    // MARK: - bcsvr lines

    /// One bcsvr line, or bare JSON inside a recorded frame's text.
    private static func bcsvrLine(_ line: String) -> DecodeInput {
        if line.hasPrefix("{") { return .message(json: line, key: nil) }
        switch BCSVRLine(line) {
        case .message(let key, let json):
            return .message(json: json, key: key)
        case .ack, .error:
            return .skipped
        case .unknown:
            // A MSG without its fields was meant as a message; another command word is a line of the protocol.
            if line.hasPrefix("MSG") && (line.count == 3 || line.dropFirst(3).first == "\t") {
                return .notDecodable(reason: "a MSG line without both a key and a JSON field", raw: line, key: nil)
            }
            if isCommand(line) { return .skipped }
            return .message(json: line, key: nil)
        }
    }

    /// A protocol command: a word of capitals (and digits) alone or followed by a TAB (`PING`, `SUB\tk:1`).
    private static func isCommand(_ line: String) -> Bool {
        let word = line.utf8.prefix { $0 != UInt8(ascii: "\t") }
        guard let first = word.first, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) else { return false }
        return word.allSatisfy {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: "_")
        }
    }

    // MARK: - Recorded frames

    /// Cheap test before parsing: a recorded frame has the keys `time` and `key`. A message could too, so
    /// `RecordedLine` also requires that there be no `t`.
    ///
    /// Foundation's `contains` (a search by characters, through `NSString` on Linux) is the rule; it took four
    /// fifths of `decode`'s time, 15 µs a line. Its match needs the needle's bytes in the line (none of `"time"`
    /// and `"key"`'s characters has another canonically equivalent spelling), so a byte search rules out nearly
    /// every line first, and Foundation decides for the few that hold the bytes.
    static func looksLikeRecordedFrame(_ line: String) -> Bool {
        containsBytes(line, "\"time\"") && containsBytes(line, "\"key\"")
            && line.contains("\"time\"") && line.contains("\"key\"")
    }

    /// Whether `needle`'s UTF-8 occurs in `text`'s, byte for byte. (By hand: the standard library's
    /// `firstRange(of:)` over the same bytes made `decode` six times slower, 3.0 s for 103,600 lines against 0.46.)
    static func containsBytes(_ text: String, _ needle: StaticString) -> Bool {
        var text = text
        return text.withUTF8 { haystack in
            needle.withUTF8Buffer { needle in
                guard let first = needle.first else { return true }
                guard let base = haystack.baseAddress, let pattern = needle.baseAddress,
                      haystack.count >= needle.count else { return false }
                // Each place the first byte occurs (`memchr`), compared whole: linear in the line for these needles.
                var start = 0
                let last = haystack.count - needle.count
                while start <= last, let found = memchr(base + start, Int32(first), last - start + 1) {
                    let at = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
                    if memcmp(base + at, pattern, needle.count) == 0 { return true }
                    start = at + 1
                }
                return false
            }
        }
    }

    /// `line` without the white space and line breaks around it, as Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives it. A line that begins and ends with a printable
    /// ASCII character (nearly every one) has none, and is returned as it is: the Foundation call, through
    /// `NSString` and UTF-16, cost microseconds a line.
    static func trimmed(_ line: String) -> String {
        let utf8 = line.utf8
        if let first = utf8.first, let last = utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return line
        }
        return line.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The items a recorded frame holds: the bcsvr lines of a text frame, or why it cannot be decoded.
    private static func recordedFrame(_ line: String, decoder: JSONDecoder) -> [DecodeInput] {
        let frame: RecordedFrame
        do {
            frame = try decoder.decode(RecordedLine.self, from: Data(line.utf8)).frame
        } catch RecordedLine.Failure.hasT {
            return [.message(json: line, key: nil)]
        } catch {
            // Not even JSON, say: if it names a `t`, it was meant as a message, and the decoder says what is wrong.
            if line.contains("\"t\"") { return [.message(json: line, key: nil)] }
            return [.notDecodable(reason: RecordingParser.problem(error), raw: line, key: nil)]
        }
        if let refused = frame.refused {
            let kept = frame.size.map { ", \(frame.bytes.count) of its \($0) bytes kept" } ?? ""
            return [.notDecodable(reason: "a recorded message the listener refused (\(refused)\(kept))",
                                  raw: line, key: frame.key)]
        }
        switch frame.content {
        case .bytes(let bytes) where frame.binary:
            return [.notDecodable(reason: "a recorded binary frame of \(byteCount(bytes.count)); bcsvr sends text",
                                  raw: line, key: frame.key)]
        case .bytes(let bytes):
            return [.notDecodable(reason: "a recorded text frame of \(byteCount(bytes.count)) that is not UTF-8",
                                  raw: line, key: frame.key)]
        case .text(let text):
            return BCSVRLine.lines(in: text).map { bcsvrLine(String($0)) }
        }
    }

    /// A recorded frame, or `hasT` for a message that happens to have `time` and `key` keys.
    private struct RecordedLine: Decodable {
        enum Failure: Error { case hasT }
        let frame: RecordedFrame

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            if try decoder.container(keyedBy: Key.self).contains(Key(stringValue: "t")) { throw Failure.hasT }
            frame = try RecordedFrame(from: decoder)
        }
    }

    // MARK: - Bytes that are not UTF-8

    /// The bytes as text, each byte that is not part of valid UTF-8 written as `\xE9`, and the first such byte
    /// with its offset.
    static func escapingInvalidUTF8(_ bytes: some Collection<UInt8>) -> (String, (offset: Int, value: UInt8)?) {
        var text = String.UnicodeScalarView()
        var firstBad: (offset: Int, value: UInt8)?
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var remaining = bytes.makeIterator()  // follows `iterator`, to read the bytes of an error
        var offset = 0
        loop: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                text.append(Unicode.UTF8.decode(encoded))
                for _ in 0..<encoded.count { _ = remaining.next() }
                offset += encoded.count
            case .error(let length):
                for _ in 0..<length {
                    guard let byte = remaining.next() else { break }
                    if firstBad == nil { firstBad = (offset, byte) }
                    text.append(contentsOf: "\\x\(hex(byte).dropFirst(2))".unicodeScalars)
                    offset += 1
                }
            case .emptyInput:
                break loop
            }
        }
        return (String(text), firstBad)
    }

    private static func byteCount(_ count: Int) -> String {
        count == 1 ? "1 byte" : "\(count) bytes"
    }

    private static func hex(_ byte: UInt8) -> String {
        "0x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }
}
