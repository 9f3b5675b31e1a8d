import BCMessages
import Foundation
import Testing

@Suite struct DecodeCommandTests {
    private func object(_ line: String) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(value as? [String: Any], "not a JSON object: \(line)")
    }

    @Test func ndjsonGivesOneLinePerMessageAndGoesOnAfterAnError() throws {
        let gift = #"{"t":35,"u":"100000001","ac":"Taro","gift_id":"2","gift_title":"Heart","coins":"1","count":"8"}"#
        let broken = #"{"t":35,"u":"100000001","ac":"Taro","gift_id":"2","gift_title":"Heart","coins":"1","count":"eight"}"#
        let unknown = #"{"t":999,"new_key":12345678901234567890123}"#
        let input = [gift, broken, "MSG\t118f91f:UdoBre1M\t\(gift)", "ACK", unknown].joined(separator: "\n") + "\n"

        let result = try BCStreamProcess.run(["decode", "--format", "ndjson"], stdin: input)

        #expect(result.status == 1, "a failed message makes the exit status non-zero")
        #expect(result.lines.count == 4, "four messages, the ACK skipped: \(result.stdout)")
        let first = try object(result.lines[0])
        #expect(first["t"] as? Int == 35)
        #expect(first["kind"] as? String == "gift")
        let canonical = try JSONSerialization.data(withJSONObject: try #require(first["message"]))
        #expect(try BCMessageDecoder().decode(canonical) == BCMessageDecoder().decode(gift))

        let failure = try object(result.lines[1])
        #expect(failure["kind"] as? String == "gift")
        #expect((failure["error"] as? String)?.contains(#"at count: expected an integer or a numeric string, found "eight""#) == true)
        #expect(failure["raw"] as? String == broken, "the raw text is kept whole")

        #expect(try object(result.lines[2])["key"] as? String == "118f91f:UdoBre1M")

        let kept = try object(result.lines[3])
        #expect(kept["kind"] as? String == "unknown")
        #expect(kept["t"] as? Int == 999)
        #expect(result.lines[3].contains("12345678901234567890123"), "every digit of the unknown kind's number kept")

        #expect(result.stderr.contains("4 messages: 2 gift; 1 unknown (t=999 ×1); 1 error; 1 line skipped"))
    }

    @Test func textIsOneReadableLinePerMessage() throws {
        let input = #"{"t":23,"online_viewer_num":44,"total_viewer_num":120}"# + "\n" + #"{"t":8}"# + "\n"
        let result = try BCStreamProcess.run(["decode"], stdin: input)
        #expect(result.status == 0)
        #expect(result.lines.count == 2)
        #expect(result.lines[0].hasPrefix("t=23"))
        #expect(result.lines[0].hasSuffix("44 watching, 120 in total"))
        #expect(result.lines[1].hasSuffix("the live ended"))
    }

    @Test func filesWithCRLFLineBreaksDecodeLineByLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("crlf-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: path) }
        try Data("{\"t\":8}\r\nMSG\tk:1\t{\"t\":23,\"online_viewer_num\":1,\"total_viewer_num\":2}\r\n".utf8).write(to: path)
        let result = try BCStreamProcess.run(["decode", "--format", "ndjson", path.path])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(try result.lines.map { try object($0)["t"] as? Int } == [8, 23])
    }

    @Test func fixtureFilesAreOneMessageEach() throws {
        let files = ["Tests/Payloads/1-comment-lci-string.json", "Tests/Payloads/8-live-ended-bare.json"]
        let result = try BCStreamProcess.run(["decode", "--format", "ndjson"] + files)
        #expect(result.status == 0)
        #expect(try result.lines.map { try object($0)["t"] as? Int } == [1, 8])
    }

    @Test func strictReportsUnknownKindsAndKeys() throws {
        let input = #"{"t":8,"surprise":1}"# + "\n" + #"{"t":999}"# + "\n"
        let result = try BCStreamProcess.run(["decode", "--strict", "--format", "ndjson"], stdin: input)
        #expect(result.status == 1)
        let errors = try result.lines.map { try object($0)["error"] as? String }
        #expect(errors[0]?.contains("\"surprise\"") == true)
        #expect(errors[1]?.contains("t=999") == true)
    }

    // MARK: - Every file a user holds

    /// A folder of its own under the temporary directory, removed when the test is done with it.
    final class Folder {
        let url: URL
        var path: String { url.path }

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("bcstream-decode-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        @discardableResult
        func write(_ name: String, _ text: String) throws -> String {
            try write(name, Data(text.utf8))
        }

        @discardableResult
        func write(_ name: String, _ data: Data) throws -> String {
            let file = url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            try data.write(to: file)
            return file.path
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    private static let viewers = #"{"t":23,"online_viewer_num":44,"total_viewer_num":120}"#

    @Test func aDashIsStdinAmongFiles() throws {
        let folder = try Folder()
        try folder.write("a.txt", "MSG\tk:1\t{\"t\":8}\n")
        let result = try BCStreamProcess.run(["decode", "--format", "ndjson", "a.txt", "-", "a.txt"],
                                             stdin: Self.viewers + "\nACK\n", in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.lines.map { try object($0)["t"] as? Int } == [8, 23, 8], "in the order given")
        #expect(result.stderr.contains("3 messages: 2 liveEnded, 1 viewerCountChanged; 0 errors; 1 line skipped"))
    }

    @Test func aFolderIsEveryFileInsideInSortedOrderHiddenOnesLeftOut() throws {
        let folder = try Folder()
        try folder.write("b/2.ndjson", "{\"t\":3}\n")
        try folder.write("b/1.json", "{\n  \"t\": 2\n}\n")            // a fixture, pretty-printed
        try folder.write("a.log", "{\"t\":1}\nACK\n")
        try folder.write("c.txt", "MSG\tk:1\t{\"t\":4}\r\n{\"t\":5}")
        try folder.write(".hidden.txt", "{\"t\":999}\n")
        try folder.write(".git/HEAD.txt", "{\"t\":999}\n")
        let result = try BCStreamProcess.run(["decode", "--format", "ndjson", folder.path])
        #expect(result.status == 1, "t=1 to 5 are not all valid messages; that is not the point: \(result.stdout)")
        let objects = try result.lines.map(object)
        #expect(objects.count == 5, "\(result.stdout)")
        let order = objects.map { ($0["t"] as? Int) ?? -1 }
        #expect(order == [1, 2, 3, 4, 5], "a.log, b/1.json, b/2.ndjson, c.txt; nothing hidden")
        #expect(!result.stdout.contains("999"))
        #expect(objects[3]["key"] as? String == "k:1")
    }

    @Test func anInvalidByteSpoilsOnlyItsLine() throws {
        let folder = try Folder()
        let bad = Data(#"{"t":1,"cm":"caf"#.utf8) + Data([0xE9]) + Data("\u{1B}[2J\"}".utf8)
        try folder.write("mixed.txt", Data((Self.viewers + "\n").utf8) + bad + Data("\n{\"t\":8}\n".utf8))
        let text = try BCStreamProcess.run(["decode", "mixed.txt"], in: folder.url)
        #expect(text.status == 1, "a line failed")
        #expect(text.lines.count == 3, "\(text.stdout)")
        #expect(text.lines[0].hasPrefix("t=23"))
        #expect(text.lines[1].contains("✗ mixed.txt:2: not UTF-8 text (byte 0xE9 at byte 17 of the line): "))
        #expect(text.lines[1].hasSuffix(#"{"t":1,"cm":"caf\xE9\u{1B}[2J"}"#), "raw text escaped: \(text.lines[1])")
        #expect(!text.stdout.contains("\u{1B}"), "no control reaches the terminal")
        #expect(text.lines[2].hasSuffix("the live ended"))
        #expect(text.stderr.contains("3 messages: 1 liveEnded, 1 viewerCountChanged; 1 error"))

        let ndjson = try BCStreamProcess.run(["decode", "--format", "ndjson", "mixed.txt"], in: folder.url)
        let failure = try object(ndjson.lines[1])
        #expect(failure["source"] as? String == "mixed.txt:2")
        #expect(failure["raw"] as? String == #"{"t":1,"cm":"caf\xE9"# + "\u{1B}[2J\"}")
    }

    @Test func aMissingPathIsReportedInPlainWordsAndTheRestDecodes() throws {
        let folder = try Folder()
        try folder.write("ok.txt", "{\"t\":8}\n")
        let result = try BCStreamProcess.run(["decode", "nope/missing.txt", "ok.txt", "gone.json"], in: folder.url)
        #expect(result.status == 1, "exit 1, not 64: nothing is wrong with the command line")
        #expect(result.lines.count == 1 && result.lines[0].hasSuffix("the live ended"), "ok.txt decoded anyway")
        #expect(result.stderr.contains("bcstream decode: cannot read nope/missing.txt: no such file\n"))
        #expect(result.stderr.contains("bcstream decode: cannot read gone.json: no such file\n"))
        #expect(result.stderr.contains("2 inputs not read"))
        for noise in ["Usage", "USAGE", "Error:", "NSCocoaErrorDomain", "The operation could not be completed"] {
            #expect(!result.stderr.contains(noise), "\(result.stderr)")
        }
    }

    @Test(.enabled(if: getuid() != 0, "root reads any file"))
    func aFileWithoutPermissionIsReported() throws {
        let folder = try Folder()
        let path = try folder.write("secret.txt", "{\"t\":8}\n")
        #expect(chmod(path, 0) == 0)
        let result = try BCStreamProcess.run(["decode", "secret.txt"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.stderr.contains("bcstream decode: cannot read secret.txt: permission denied\n"))
    }

    @Test func aBinaryFileIsSkippedWithAWord() throws {
        let folder = try Folder()
        try folder.write("photo.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]))
        try folder.write("fixture.json", Data([0x7B, 0, 0x7D]))
        try folder.write("ok.txt", "{\"t\":8}\n")
        let result = try BCStreamProcess.run(["decode", "."], in: folder.url)
        #expect(result.status == 1)
        #expect(result.lines.count == 1 && result.lines[0].hasSuffix("the live ended"), "\(result.stdout)")
        #expect(result.stderr.contains("bcstream decode: ./photo.png looks binary, not text; skipped\n"))
        #expect(result.stderr.contains("bcstream decode: ./fixture.json looks binary, not text; skipped\n"))
        #expect(!result.stdout.contains("PNG"), "nothing of it printed")
    }

    /// stdin is decoded as it comes: each line is printed while stdin is still open, as from `tail -f`.
    @Test(.timeLimit(.minutes(1)))
    func stdinIsDecodedLineByLineAsItComes() throws {
        let decode = try BCStreamProcess.start(["decode", "--format", "ndjson", "-"], input: true)
        defer { decode.terminate() }
        try decode.write(Self.viewers + "\n")
        let first = try #require(decode.readLine(), "the first line is decoded before stdin ends")
        #expect(try object(first)["t"] as? Int == 23)
        try decode.write("MSG\tk:1\t{\"t\":8}\n")
        let second = try #require(decode.readLine())
        #expect(try object(second)["key"] as? String == "k:1")
        try decode.closeInput()
        #expect(decode.readLine() == nil)
        #expect(decode.wait() == 0)
    }

    /// Streamed, not read whole: a line over the 16 MiB limit is one error, and the lines after it decode.
    @Test func aLineOverTheLimitIsOneErrorAndTheNextLinesDecode() throws {
        var input = Data((Self.viewers + "\n").utf8)
        input.append(Data(repeating: UInt8(ascii: "x"), count: 17 << 20))
        input.append(Data("\n{\"t\":8}\n".utf8))
        let result = try BCStreamProcess.run(["decode", "--format", "ndjson", "-"], input: input)
        #expect(result.status == 1)
        #expect(result.lines.count == 3)
        let failure = try object(result.lines[1])
        #expect(failure["source"] as? String == "stdin:2")
        #expect(failure["error"] as? String
                == "a line of 17825792 bytes, longer than the 16 MiB a line may hold; skipped")
        #expect(try object(result.lines[2])["t"] as? Int == 8)
    }

    /// A recording mixes what the wire sent: messages (decoded with their key), ACKs (skipped), and frames that
    /// are no text (reported where they are).
    @Test func aRecordingIsDecodedFrameByFrame() throws {
        let folder = try Folder()
        let lines = [
            #"{"key":"k:1","text":"ACK","time":"2026-11-22T02:30:11.000Z"}"#,
            #"{"key":"k:1","text":"MSG\tk:1\t{\"t\":23,\"online_viewer_num\":44,\"total_viewer_num\":120}","time":"2026-11-22T02:30:11.500Z"}"#,
            #"{"binary":true,"bytes":"AAEC/w==","key":"k:1","time":"2026-11-22T02:30:12.000Z"}"#,
            #"{"bytes":"TVNH","key":"k:1","refused":"larger than 1048576 bytes (closed with 1009)","size":2000000,"time":"2026-11-22T02:30:13.000Z","truncated":true}"#,
            #"{"key":"k:1","text":"MSG\tk:1\t{\"t\":8}","time":"2026-11-22T02:30:14.000Z"}"#,
        ]
        try folder.write("session.log", lines.joined(separator: "\n") + "\n")
        let result = try BCStreamProcess.run(["decode", "--format", "ndjson", "session.log"], in: folder.url)
        #expect(result.status == 1, "two frames could not be decoded")
        let objects = try result.lines.map(object)
        #expect(objects.count == 4, "\(result.stdout)")
        #expect(objects[0]["t"] as? Int == 23 && objects[0]["key"] as? String == "k:1")
        #expect(objects[1]["source"] as? String == "session.log:3")
        #expect((objects[1]["error"] as? String)?.hasPrefix("a recorded binary frame of 4 bytes") == true)
        #expect(objects[1]["raw"] as? String == lines[2])
        #expect(objects[2]["source"] as? String == "session.log:4")
        #expect((objects[2]["error"] as? String)?.contains("refused (larger than 1048576 bytes") == true)
        #expect(objects[3]["t"] as? Int == 8)
        #expect(result.stderr.contains("4 messages: 1 liveEnded, 1 viewerCountChanged; 2 errors; 1 line skipped"))
    }

    /// What `listen` printed live and what `decode` prints from its recording are the same lines.
    @Test(.timeLimit(.minutes(1)))
    func aRecordingDecodesToWhatTheListenerPrintedLive() throws {
        let folder = try Folder()
        let recording = folder.path + "/live.ndjson"
        let replay = try BCStreamProcess.start(["replay", "23", "3", "1", "35", "116", "999", "8-live-ended-bare",
                                                "--interval", "0"])
        defer { replay.terminate() }
        let url = try #require(replay.readLine(), "replay prints its URL first")
        let live = try BCStreamProcess.run(["listen", url, "--key", "live:1", "--format", "ndjson",
                                            "--record", recording, "--duration", "30"])
        #expect(live.status == 0, "\(live.stderr)")
        #expect(live.lines.count > 10, "\(live.stdout)")
        #expect(try object(try #require(live.lines.last))["kind"] as? String == "liveEnded")

        let decoded = try BCStreamProcess.run(["decode", "--format", "ndjson", recording])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect(decoded.lines == live.lines)
    }

    @Test func helpFitsEightyColumns() throws {
        let result = try BCStreamProcess.run(["decode", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("recorded by `bcstream listen --record`"))
        let wide = result.stdout.split(separator: "\n").filter { $0.count > 80 }
        #expect(wide.isEmpty, "lines over 80 columns: \(wide)")
    }

    @Test func typesListsEveryKind() throws {
        let result = try BCStreamProcess.run(["types", "--format", "ndjson"])
        #expect(result.status == 0)
        let listed = try result.lines.map { try object($0) }
        #expect(listed.compactMap { $0["t"] as? Int } == BCType.allCases.map(\.rawValue))
        #expect(listed.compactMap { $0["kind"] as? String } == BCType.allCases.map(\.name))
    }
}
