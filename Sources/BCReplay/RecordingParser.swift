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
import Dispatch
import Synchronization

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

    /// `parse(_:file:)` over a recording's bytes, read where they lie. They should be UTF-8: a line that is not is
    /// a problem of its own, the others are read.
    public static func parse(utf8 data: Data, file: String) -> ReplayPlaylist {
        data.withUnsafeBytes { raw in parse(bytes: raw.assumingMemoryBound(to: UInt8.self), file: file) }
    }

    /// A recording this large or larger is read in chunks on every core (`parseInChunks`).
    static let chunkedSize = 4 << 20

    private static func parse(bytes: UnsafeBufferPointer<UInt8>, file: String) -> ReplayPlaylist {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard bytes.count >= chunkedSize, cores > 1 else { return parseInChunks(bytes: bytes, file: file, chunks: 1) }
        return parseInChunks(bytes: bytes, file: file, chunks: min(cores, 16))
    }

    /// The recording cut at line breaks into `chunks` parts of about the same size, each read on a thread of its
    /// own, then put back together in order: loading a large recording is one pass per core over its part instead
    /// of one pass over the whole. The items and problems are those of reading it in one piece (a test holds the
    /// two to the same result).
    static func parseInChunks(bytes: UnsafeBufferPointer<UInt8>, file: String, chunks: Int) -> ReplayPlaylist {
        // Offsets are measured from the recording's first frame: the lines up to it are read first, here.
        var reader = LineReader(bytes: bytes, file: file, firstLine: 1, start: nil)
        reader.read(to: bytes.count, stoppingAtTheFirstFrame: true)
        guard let base = bytes.baseAddress, chunks > 1, reader.position < bytes.count else {
            reader.read(to: bytes.count)
            return reader.playlist
        }
        // The rest cut at the first line break after each even share of it: each part ends with a line break,
        // but the last, which takes whatever follows the last line break too. A line longer than a share leaves
        // fewer parts; one that ends the text ends the cutting.
        var boundaries = [reader.position]
        let share = (bytes.count - reader.position) / chunks
        for index in 1..<chunks {
            let target = max(boundaries[boundaries.count - 1], reader.position + share * index)
            guard target < bytes.count, let found = memchr(base + target, 0x0A, bytes.count - target) else { break }
            let cut = UnsafeRawPointer(found) - UnsafeRawPointer(base) + 1
            guard cut < bytes.count else { break }
            boundaries.append(cut)
        }
        boundaries.append(bytes.count)
        let parts = boundaries.count - 1
        // Each part's first line number: one more than the line breaks before it.
        var firstLines = [reader.line + 1]
        for index in 1..<parts {
            var breaks = 0
            var position = boundaries[index - 1]
            while position < boundaries[index], let found = memchr(base + position, 0x0A, boundaries[index] - position) {
                breaks += 1
                position = UnsafeRawPointer(found) - UnsafeRawPointer(base) + 1
            }
            firstLines.append(firstLines[index - 1] + breaks)
        }
        let results = Mutex<[ReplayPlaylist]>(Array(repeating: ReplayPlaylist(), count: parts))
        // The buffer crosses threads as its address: it outlives concurrentPerform, which returns once every
        // iteration has, and each iteration only reads its own part of it.
        let address = UInt(bitPattern: base)
        let (count, start) = (bytes.count, reader.start)
        let (cuts, numbers) = (boundaries, firstLines)
        DispatchQueue.concurrentPerform(iterations: parts) { index in
            let bytes = UnsafeBufferPointer(start: UnsafePointer<UInt8>(bitPattern: address), count: count)
            var part = LineReader(bytes: bytes, file: file, firstLine: numbers[index], start: start,
                                  position: cuts[index])
            part.read(to: cuts[index + 1], lastPart: index == parts - 1)
            let playlist = part.playlist
            results.withLock { $0[index] = playlist }
        }
        for playlist in results.withLock({ $0 }) {
            reader.playlist.items += playlist.items
            reader.playlist.problems += playlist.problems
        }
        return reader.playlist
    }

    /// Reads the lines of a recording one after the other, from `position`, into `playlist`.
    private struct LineReader {
        let bytes: UnsafeBufferPointer<UInt8>
        let file: String
        /// The time of the recording's first frame, once read: offsets are measured from it.
        var start: Date?
        var position: Int
        /// The number of the last line read.
        var line: Int
        var playlist = ReplayPlaylist()
        let decoder = JSONDecoder()
        let fast = TapeJSONDecoder()

        init(bytes: UnsafeBufferPointer<UInt8>, file: String, firstLine: Int, start: Date?, position: Int = 0) {
            self.bytes = bytes
            self.file = file
            self.start = start
            self.position = position
            line = firstLine - 1
        }

        /// Reads the lines that start before `end`, and with `lastPart` the text after the last line break, or,
        /// `stoppingAtTheFirstFrame`, up to the line that gave `start`.
        mutating func read(to end: Int, lastPart: Bool = true, stoppingAtTheFirstFrame: Bool = false) {
            guard let base = bytes.baseAddress else { return }
            // Lines cut on the bytes with memchr: a split on Characters and a Foundation trim per line took two
            // thirds of loading a recording (63 µs a line), and a generic split of the UTF-8 view a fifth of what
            // was left. A CRLF line keeps its \r, which JSON reads as whitespace.
            while position < end || (lastPart && position == end && end == bytes.count) {
                if stoppingAtTheFirstFrame, start != nil { return }
                var newline = end
                if position < end, let found = memchr(base + position, 0x0A, end - position) {
                    newline = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                }
                let text = UnsafeBufferPointer(rebasing: bytes[position..<newline])
                position = newline + 1
                line += 1
                read(text, at: ReplaySourceLocation(file: file, line: line))
            }
        }

        private mutating func read(_ line: UnsafeBufferPointer<UInt8>, at location: ReplaySourceLocation) {
            guard !isBlank(line) else { return }
            let frame: RecordedFrame
            do {
                // The fast engine's tape first (JSONDecoder's values, a third of its time on frames full of
                // escapes); JSONDecoder again for a line that fails, whose error is reported in its words.
                frame = try (try? fast.decode(RecordedFrame.self, from: UnsafeRawBufferPointer(line)))
                    ?? decoder.decode(RecordedFrame.self, from: Data(line))
            } catch {
                let text = Substring(String(decoding: line, as: UTF8.self))
                playlist.problems.append(ReplayProblem(location: location, message: describe(error, line: text)))
                return
            }
            // The recorder wrote a checked key; a hand-edited or hostile recording may not have: a frame whose key
            // is not a channel key is left out, as a line that is not a frame is.
            if let problem = ChannelKey.problem(with: frame.key) {
                let invalid = InvalidChannelKey(origin: "the recorded frame's key", value: frame.key, problem: problem)
                playlist.problems.append(ReplayProblem(location: location, message: "\(invalid); frame not replayed"))
                return
            }
            let first = start ?? frame.time
            start = first
            let offset = Duration.milliseconds(Int64((frame.time.timeIntervalSince(first) * 1000).rounded()))
            if let refused = frame.refused {
                // The listener closed over it; a truncated start cannot be sent as it arrived.
                let kept = frame.size.map { ", \(frame.bytes.count) of its \($0) bytes kept" } ?? ""
                playlist.problems.append(ReplayProblem(
                    location: location, message: "a message the listener refused (\(refused)\(kept)), not replayed"))
                return
            }
            let content: ReplayItem.Content = switch frame.content {
            case .bytes(let bytes) where frame.binary: .recordedBinary(bytes: bytes, offset: offset)
            case .text, .bytes: .recordedFrame(text: frame.text, recordedKey: frame.key, offset: offset)
            }
            playlist.items.append(ReplayItem(content: content, location: location))
        }
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
