#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BCListener
import BCMessages

/// Reads a recording, the NDJSON `bcstream listen --record` writes (one `RecordedFrame` a line), into items.
/// Pure: it reads text, not files.
///
/// Every line that is a recorded frame becomes an item at its line, its offset measured from the first frame
/// of the recording. A malformed line becomes a problem with its file and line, and reading goes on. Blank
/// lines (the final newline, a hand-edited gap) are skipped silently. Frames whose time goes back (a clock
/// that was set back) keep their order in the file; the schedule sends them without waiting.
public enum RecordingParser {
    /// What a recording line looks like, for messages.
    static let expectedLine = #"{"time":"2026-11-22T02:30:11.123Z","key":"…","text":"…"}"#

    /// The items and problems of a recording's text, the lines numbered from 1 in `file`.
    public static func parse(_ text: String, file: String) -> ReplayPlaylist {
        var text = text
        return text.withUTF8 { parse(bytes: $0, file: file) }
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>, file: String) -> ReplayPlaylist {
        var playlist = ReplayPlaylist()
        var start: Date?
        let decoder = JSONDecoder()
        let fast = TapeJSONDecoder()
        guard let base = bytes.baseAddress else { return playlist }
        var lineStart = 0
        var number = 0
        // Lines cut on the bytes with memchr: a split on Characters and a Foundation trim per line took two thirds of
        // loading a recording (63 µs a line), and a generic split of the UTF-8 view a fifth of what was left. A CRLF
        // line keeps its \r, which JSON reads as whitespace.
        while lineStart <= bytes.count {
            var newline = bytes.count
            if let found = memchr(base + lineStart, 0x0A, bytes.count - lineStart) {
                newline = UnsafeRawPointer(found) - UnsafeRawPointer(base)
            }
            let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<newline])
            lineStart = newline + 1
            number += 1
            let location = ReplaySourceLocation(file: file, line: number)
            guard !isBlank(line) else { continue }
            let frame: RecordedFrame
            do {
                // The fast engine's tape first (JSONDecoder's values, a third of its time on frames full of
                // escapes); JSONDecoder again for a line that fails, whose error is reported in its words.
                frame = try (try? fast.decode(RecordedFrame.self, from: UnsafeRawBufferPointer(line)))
                    ?? decoder.decode(RecordedFrame.self, from: Data(line))
            } catch {
                let text = Substring(String(decoding: line, as: UTF8.self))
                playlist.problems.append(ReplayProblem(location: location, message: describe(error, line: text)))
                continue
            }
            let first = start ?? frame.time
            start = first
            let offset = Duration.milliseconds(Int64((frame.time.timeIntervalSince(first) * 1000).rounded()))
            if let refused = frame.refused {
                // The listener closed over it; a truncated start cannot be sent as it arrived.
                let kept = frame.size.map { ", \(frame.bytes.count) of its \($0) bytes kept" } ?? ""
                playlist.problems.append(ReplayProblem(
                    location: location, message: "a message the listener refused (\(refused)\(kept)), not replayed"))
                continue
            }
            let content: ReplayItem.Content = switch frame.content {
            case .bytes(let bytes) where frame.binary: .recordedBinary(bytes: bytes, offset: offset)
            case .text, .bytes: .recordedFrame(text: frame.text, recordedKey: frame.key, offset: offset)
            }
            playlist.items.append(ReplayItem(content: content, location: location))
        }
        return playlist
    }

    /// True when the first line that is not blank is a recorded frame: how a recording with another extension
    /// than `.ndjson` is recognised.
    public static func looksLikeRecording(_ text: String) -> Bool {
        guard let line = text.utf8.split(separator: UInt8(ascii: "\n")).first(where: { !isBlank($0) }) else {
            return false
        }
        return (try? JSONDecoder().decode(RecordedFrame.self, from: Data(line))) != nil
    }

    /// A line of only spaces, TABs and CRs (the final newline, a hand-edited gap).
    static func isBlank(_ bytes: some Sequence<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
    }

    /// Why a line is not a recorded frame, and what was expected.
    static func describe(_ error: any Error, line: Substring) -> String {
        "not a recorded frame (\(reason(error))), left out; expected a line like \(expectedLine), found "
            + line.excerpt
    }

    /// Why a line that looks like a recorded frame is not one (`error` from decoding a `RecordedFrame`), and what
    /// was expected, for a reader of recordings other than the replay (`bcstream decode`).
    public static func problem(_ error: any Error) -> String {
        "not a recorded frame (\(reason(error))); expected a line like \(expectedLine)"
    }

    /// Why decoding a `RecordedFrame` failed, in a few words.
    private static func reason(_ error: any Error) -> String {
        let reason: String
        switch error {
        case DecodingError.keyNotFound(let key, _):
            reason = "no \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty:
            reason = "not a JSON object"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            reason = "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" is not a string"
        case DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty:
            reason = context.debugDescription
        default:
            reason = "not JSON"
        }
        return reason
    }
}

extension StringProtocol {
    /// The start of a text for a message: at most 80 characters, TABs shown as `\t`.
    var excerpt: String {
        let text = count <= 80 ? String(self) : String(prefix(80)) + "…"
        return text.replacing("\t", with: "\\t")
    }
}
