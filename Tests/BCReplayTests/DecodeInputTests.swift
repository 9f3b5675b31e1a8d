@testable import BCReplay
import Foundation
import Testing

/// How `decode` reads one line: every shape a user's file may hold, detected per line.
@Suite struct DecodeInputTests {
    struct Shape: Sendable, CustomTestStringConvertible {
        let name: String
        let line: String
        let expected: Expected
        var testDescription: String { name }

        enum Expected: Sendable {
            case exactly([DecodeInput])
            /// One `.notDecodable` whose reason contains this text, with the line as raw text and this key.
            case notDecodable(containing: String, key: String?)
        }

        init(_ name: String, _ line: String, _ expected: [DecodeInput]) {
            self.name = name
            self.line = line
            self.expected = .exactly(expected)
        }

        init(_ name: String, _ line: String, notDecodable reason: String, key: String? = nil) {
            self.name = name
            self.line = line
            self.expected = .notDecodable(containing: reason, key: key)
        }
    }

    static let gift = #"{"t":35,"gift_id":"2","count":"8"}"#

    /// A line as `bcstream listen --record` writes it (`RecordedFrame.line()`, sorted keys).
    static func recorded(_ fields: [String: Any]) -> String {
        var object = fields
        object["time"] = object["time"] ?? "2026-11-22T02:30:11.123Z"
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    static let shapes: [Shape] = [
        Shape("bare JSON", gift, [.message(json: gift, key: nil)]),
        Shape("bare JSON with spaces around", "  \(gift)\t ", [.message(json: gift, key: nil)]),
        Shape("bcsvr MSG", "MSG\tk:1\t\(gift)", [.message(json: gift, key: "k:1")]),
        Shape("bcsvr MSG whose JSON holds a TAB", "MSG\tk:1\t{\"t\":1,\"cm\":\"a\tb\"}",
              [.message(json: "{\"t\":1,\"cm\":\"a\tb\"}", key: "k:1")]),
        Shape("bcsvr ACK", "ACK", [.skipped]),
        Shape("bcsvr ACK with a word", "ACK\tpong", [.skipped]),
        Shape("bcsvr ERR", "ERR\tbad key", [.skipped]),
        Shape("a client command", "SUB\tk:1", [.skipped]),
        Shape("PING", "PING", [.skipped]),
        Shape("blank", " \t ", []),
        Shape("a MSG without its fields", "MSG\tk:1", notDecodable: "a MSG line without both a key and a JSON field"),
        Shape("text that is no message", "hello there", [.message(json: "hello there", key: nil)]),
        Shape("a JSON array", "[1,2]", [.message(json: "[1,2]", key: nil)]),
        Shape("a message that has time and key", #"{"t":1,"time":"now","key":"k","text":"hi"}"#,
              [.message(json: #"{"t":1,"time":"now","key":"k","text":"hi"}"#, key: nil)]),
        Shape("a broken message that has time and key", #"{"t":1,"time":"now","key":"k""#,
              [.message(json: #"{"t":1,"time":"now","key":"k""#, key: nil)]),
        Shape("recorded MSG frame", recorded(["key": "k:1", "text": "MSG\tk:1\t\(gift)"]),
              [.message(json: gift, key: "k:1")]),
        Shape("recorded frame written by hand, time first",
              #"{"time":"2026-11-22T02:30:11Z","key":"k:1","text":"MSG\tk:1\t{\"t\":8}"}"#,
              [.message(json: #"{"t":8}"#, key: "k:1")]),
        Shape("recorded ACK frame", recorded(["key": "k:1", "text": "ACK"]), [.skipped]),
        Shape("recorded frame of two lines", recorded(["key": "k:1", "text": "MSG\tk:1\t{\"t\":8}\r\nACK\n"]),
              [.message(json: #"{"t":8}"#, key: "k:1"), .skipped]),
        Shape("recorded binary frame", recorded(["key": "k:1", "bytes": "AAEC/w==", "binary": true]),
              notDecodable: "a recorded binary frame of 4 bytes", key: "k:1"),
        Shape("recorded refused message",
              recorded(["key": "k:1", "bytes": "TVNH", "refused": "larger than 1048576 bytes", "size": 2_000_000,
                        "truncated": true]),
              notDecodable: "a recorded message the listener refused (larger than 1048576 bytes, 3 of its 2000000",
              key: "k:1"),
        Shape("recorded text frame that is not UTF-8", recorded(["key": "k:1", "bytes": "/w=="]),
              notDecodable: "a recorded text frame of 1 byte that is not UTF-8", key: "k:1"),
        Shape("recorded frame without its text", #"{"time":"2026-11-22T02:30:11Z","key":"k:1"}"#,
              notDecodable: #"not a recorded frame (no "text")"#),
    ]

    @Test(arguments: shapes)
    func eachShapeIsDetected(_ shape: Shape) {
        let detected = DecodeInput.detect(shape.line)
        switch shape.expected {
        case .exactly(let expected):
            #expect(detected == expected)
        case .notDecodable(let reason, let key):
            guard detected.count == 1, case .notDecodable(let found, let raw, let foundKey) = detected[0] else {
                Issue.record("expected one undecodable input, found \(detected)")
                return
            }
            #expect(found.contains(reason), "\(found)")
            #expect(raw == shape.line.trimmingCharacters(in: .whitespaces), "the raw text is kept whole")
            #expect(foundKey == key)
        }
    }

    /// Lines whose ends or keys a byte test could misjudge: white space beyond ASCII at either end (no-break,
    /// ideographic, line separator), a line that is only that, a combining mark after the quote that closes
    /// `"time"` (Foundation's search by characters then finds no `"time"`), the keys spelled with escapes.
    static let edgeLines = [
        #"{"t":1}"#, " {\"t\":1}\t", "\u{3000}{\"t\":1}", "{\"t\":1}\u{00A0}", "\u{2028}MSG\tk\t{}\u{2029}",
        "\u{3000}\u{00A0}",
        "\r\n", "x", "{\"time\":1,\"key\":2}", "{\"time\"\u{301}:1,\"key\":2}", "{\"time\":1,\"key\"\u{308}:2}",
        #"{"\u0074ime":1,"key":2}"#, "{\"time\":\"\u{3000}\",\"key\":\"k\"}\u{3000}", "é", "{\"key\":\"time\"}",
    ]

    /// The byte tests that spare most lines Foundation's character searches give exactly what those give.
    @Test(arguments: edgeLines)
    func theFastTrimAndRecordedFrameTestAgreeWithFoundation(_ line: String) {
        #expect(DecodeInput.trimmed(line) == line.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(DecodeInput.looksLikeRecordedFrame(line) == (line.contains("\"time\"") && line.contains("\"key\"")))
    }

    @Test func aLineThatIsNotUTF8IsShownWithItsBadBytesEscaped() {
        let input = DecodeInput.notUTF8(Array(#"{"cm":"caf"#.utf8) + [0xE9] + Array("\"}".utf8) + [0xFF])
        #expect(input == .notDecodable(reason: "not UTF-8 text (byte 0xE9 at byte 11 of the line)",
                                       raw: #"{"cm":"caf\xE9"}\xFF"#, key: nil))
    }
}

/// `LineReader`: lines as bytes, whatever they hold, with a bounded line.
@Suite struct LineReaderTests {
    private func lines(of bytes: [UInt8], maxLineBytes: Int = LineReader.defaultMaxLineBytes) throws
        -> [(Int, String)] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = open(path, O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        var lines: [(Int, String)] = []
        try LineReader(descriptor: descriptor, maxLineBytes: maxLineBytes).forEachLine({ number, line in
            switch line {
            case .bytes(let bytes): lines.append((number, DecodeInput.escapingInvalidUTF8(bytes).0))
            case .tooLong(let size): lines.append((number, "<\(size) bytes>"))
            }
        })
        return lines
    }

    @Test func linesAreSplitOnNewlinesWithoutTheirCR() throws {
        let found = try lines(of: Array("\u{FEFF}one\r\ntwo\n\nthree".utf8))
        #expect(found.map(\.0) == [1, 2, 3, 4])
        #expect(found.map(\.1) == ["one", "two", "", "three"], "the BOM dropped, the last line needs no newline")
    }

    @Test func aBadByteStaysInItsLine() throws {
        let found = try lines(of: Array("a\n".utf8) + [0xC3, 0x0A, 0xE9] + Array("b\nc\n".utf8))
        #expect(found.map(\.1) == ["a", "\\xC3", "\\xE9b", "c"])
    }

    /// Across chunk boundaries too: lines longer than a chunk, and one longer than the limit.
    @Test func aLineLongerThanTheLimitIsReportedAndTheNextOnesAreRead() throws {
        let long = String(repeating: "x", count: 200_000)
        let fits = String(repeating: "y", count: 150_000)
        let found = try lines(of: Array("first\n\(long)\n\(fits)\nlast".utf8), maxLineBytes: 160_000)
        #expect(found.map(\.0) == [1, 2, 3, 4])
        #expect(found.map(\.1) == ["first", "<200000 bytes>", fits, "last"])
        let tail = try lines(of: Array("first\n\(long)".utf8), maxLineBytes: 160_000)
        #expect(tail.map(\.1) == ["first", "<200000 bytes>"], "an over-long last line without a newline")
    }

    @Test func aNULNearTheStartIsBinary() throws {
        #expect(throws: LineReader.Failure.binary) { try lines(of: Array("PK".utf8) + [0, 3, 4]) }
    }
}

/// Why an input was not read, in the words a person reads on stderr.
@Suite struct DecodeProblemTests {
    @Test(arguments: [
        (ENOENT, "cannot read x.txt: no such file"),
        (EACCES, "cannot read x.txt: permission denied"),
        (EPERM, "cannot read x.txt: permission denied"),
        (ENOTDIR, "cannot read x.txt: a part of the path is not a folder"),
    ])
    func errnoInPlainWords(_ code: Int32, _ expected: String) {
        #expect(DecodeProblem.unreadable(path: "x.txt", reason: DecodeProblem.reason(errno: code)).description
                == expected)
    }

    @Test func binaryAndTooLarge() {
        #expect(DecodeProblem(.binary, source: .lines(path: "a.png")).description == "a.png looks binary, not text; skipped")
        #expect(DecodeProblem(.tooLarge(limit: 16 << 20), source: .fixture(path: "big.json")).description
                == "big.json is larger than 16 MiB, too large for one message; skipped")
    }
}
