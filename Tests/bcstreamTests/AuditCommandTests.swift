import BCMessages
import Foundation
import Testing

/// `bcstream audit` and `bcstream fixture add` run as a user runs them, on a recording written here.
@Suite struct AuditCommandTests {
    static let newKey = #"{"t":35,"u":"4411","ac":"Real Name","iurl":"https:\/\/cdn.real.com\/p\/4411.jpeg?1","burl":"","gift_id":"2","gift_title":"Heart","coins":"1","count":1,"sparkle":{"level":3}}"#
    static let boolCoins = #"{"t":35,"u":"100000001","ac":"Taro","gift_id":"2","gift_title":"Heart","coins":true,"count":1}"#
    static let missing = #"{"t":35,"u":"100000001","ac":"Taro","gift_title":"Heart","coins":"1","count":1}"#
    static let newKind = #"{"t":777,"mission":{"id":"m-1"}}"#
    static let comment = #"{"t":1,"u":"100000002","ac":"Hana","cm":"hi","lci":"5"}"#

    static func quoted(_ text: String) throws -> String {
        String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
    }

    /// A `listen --record` recording of the messages, in a folder of its own.
    static func recording(_ messages: [String]) throws -> (folder: URL, file: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lines = try messages.map {
            "{\"key\":\"k:1\",\"text\":\(try quoted("MSG\tk:1\t\($0)")),\"time\":\"2026-11-22T02:30:11.123Z\"}"
        }
        let file = folder.appendingPathComponent("live.ndjson")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        return (folder, file)
    }

    @Test func namesTheNewKeyKindDriftAndMissingKeyAndFailsOnDriftWhenAsked() throws {
        let (folder, file) = try Self.recording([Self.newKey, Self.boolCoins, Self.missing, Self.newKind, Self.comment])
        defer { try? FileManager.default.removeItem(at: folder) }

        let text = try BCStreamProcess.run(["audit", file.path])
        #expect(text.status == 0, "findings alone do not fail: \(text.stderr)")
        for needle in ["sparkle", "coins (int)", "boolean", "gift_id", "t=777", "1 new kind"] {
            #expect(text.stdout.contains(needle), "\(needle) in:\n\(text.stdout)")
        }

        let json = try BCStreamProcess.run(["audit", "--format", "json", file.path])
        #expect(json.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [String: Int])
        #expect(findings == ["newKeys": 1, "newKinds": 1, "drift": 1, "missingKeys": 1])
        #expect(json.stdout.contains(#""path" : "sparkle""#) && json.stdout.contains(#""path" : "gift_id""#))

        let failing = try BCStreamProcess.run(["audit", "--fail-on-drift", file.path])
        #expect(failing.status == 3)

        let (cleanFolder, clean) = try Self.recording([Self.comment])
        defer { try? FileManager.default.removeItem(at: cleanFolder) }
        #expect(try BCStreamProcess.run(["audit", "--fail-on-drift", clean.path]).status == 0)
        #expect(try BCStreamProcess.run(["audit", folder.appendingPathComponent("nothing").path]).status == 1)
    }

    @Test func baselineReportsOnlyWhatIsNewAndFailsOnlyThen() throws {
        let (folder, monday) = try Self.recording([Self.newKey, Self.missing, Self.newKind])
        defer { try? FileManager.default.removeItem(at: folder) }
        let saved = try BCStreamProcess.run(["audit", "--format", "json", "--keys", monday.path])
        let baseline = folder.appendingPathComponent("monday.json")
        try saved.stdout.write(to: baseline, atomically: true, encoding: .utf8)

        let same = try BCStreamProcess.run(["audit", "--baseline", baseline.path, "--fail-on-drift", monday.path])
        #expect(same.status == 0, "nothing new since Monday: \(same.stdout)")
        #expect(same.stdout.contains("No drift"))

        let (tuesdayFolder, tuesday) = try Self.recording([Self.newKey, Self.boolCoins, Self.newKind, Self.comment,
                                                            #"{"t":888}"#])
        defer { try? FileManager.default.removeItem(at: tuesdayFolder) }
        let changed = try BCStreamProcess.run(["audit", "--baseline", baseline.path, "--fail-on-drift", tuesday.path])
        #expect(changed.status == 3)
        #expect(changed.stdout.contains("Compared with \(baseline.path)"))
        #expect(changed.stdout.contains("coins (int)") && changed.stdout.contains("t=888"))
        #expect(!changed.stdout.contains("sparkle") && !changed.stdout.contains("t=777"), "Monday had them")

        let notAReport = try BCStreamProcess.run(["audit", "--baseline", monday.path, tuesday.path])
        #expect(notAReport.status == 1 && notAReport.stderr.contains("is not a report of `bcstream audit --format json`"))
    }

    /// A log of `decode --strict --format ndjson` (as `listen --strict --format ndjson` writes it) keeps the wire
    /// text of every message the model does not fully know: the audit finds the same things in it.
    @Test func readsTheNDJSONLogOfAStrictSession() throws {
        let input = [Self.newKey, Self.boolCoins, Self.missing, Self.newKind, Self.comment].joined(separator: "\n") + "\n"
        let log = try BCStreamProcess.run(["decode", "--strict", "--format", "ndjson"], stdin: input)
        #expect(log.lines.count == 5)
        let audit = try BCStreamProcess.run(["audit", "--format", "json", "-"], stdin: log.stdout)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [String: Any])
        #expect(report["findings"] as? [String: Int] == ["newKeys": 1, "newKinds": 1, "drift": 1, "missingKeys": 1])
        #expect(report["reencoded"] as? Int == 1, "the clean comment is the model's re-encoding: counted only")
    }

    @Test func fixtureAddWritesTheMessageAsReceivedWithUserFieldsMadeUpAndRefusesToOverwrite() throws {
        let (folder, file) = try Self.recording([Self.comment, Self.newKey])
        defer { try? FileManager.default.removeItem(at: folder) }

        let added = try BCStreamProcess.run(["fixture", "add", file.path, "--kind", "gift", "--what", "sparkle",
                                             "--into", folder.path])
        #expect(added.status == 0, "\(added.stderr)")
        let written = folder.appendingPathComponent("35-gift-sparkle.json")
        let text = try String(contentsOf: written, encoding: .utf8)
        let expected = Self.newKey.replacing(#""u":"4411""#, with: #""u":"100000001""#)
            .replacing(#""ac":"Real Name""#, with: #""ac":"viewer1""#)
            .replacing(#"https:\/\/cdn.real.com\/p\/4411.jpeg?1"#, with: #"https:\/\/cdn.example.com\/image\/placeholder.png"#)
        #expect(text == expected, "the raw text, the user fields aside, byte for byte; no trailing newline")
        #expect(throws: Never.self) { try BCMessageDecoder().decode(text) }
        #expect(added.stdout.contains("wrote \(written.path)"))
        #expect(added.stdout.contains("BCSTREAM_RECORD_GOLDENS=1 swift test --filter FixtureTests"))

        let again = try BCStreamProcess.run(["fixture", "add", file.path, "--kind", "gift", "--what", "sparkle",
                                             "--into", folder.path])
        #expect(again.status == 1 && again.stderr.contains("exists; not overwritten"))
        #expect(try String(contentsOf: written, encoding: .utf8) == text)

        let byLine = try BCStreamProcess.run(["fixture", "add", file.path, "--line", "1", "--into", folder.path])
        #expect(byLine.status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("1-comment-captured-line-1.json").path))

        let slash = try BCStreamProcess.run(["fixture", "add", file.path, "--what", "../escape", "--into", folder.path])
        #expect(slash.status == 64 && slash.stderr.contains("path separator"))
        let none = try BCStreamProcess.run(["fixture", "add", file.path, "--kind", "join", "--into", folder.path])
        #expect(none.status == 1 && none.stderr.contains("no message of t=3"))
    }

    /// `listen --audit` against `replay` serving the recording: the messages on stdout as ever, and at the end the
    /// audit's report on stderr, with each finding's location as KEY:MESSAGE.
    @Test(.timeLimit(.minutes(1)))
    func listenAuditReportsOnStderrAtTheEnd() throws {
        let (folder, file) = try Self.recording([Self.newKey, Self.boolCoins, Self.missing, Self.newKind, Self.comment,
                                                 #"{"t":8}"#])
        defer { try? FileManager.default.removeItem(at: folder) }
        let replay = try BCStreamProcess.start(["replay", file.path, "--interval", "0"])
        defer { replay.terminate() }
        let url = try #require(replay.readLine(), "replay prints its URL first")

        let listen = try BCStreamProcess.run(["listen", url, "--key", "a:1", "--audit", "--format", "ndjson"])
        #expect(listen.status == 0, "\(listen.stderr)")
        #expect(listen.lines.count == 6, "every message still printed: \(listen.stdout)")
        for needle in ["bcstream listen --audit", "sparkle", "coins (int)", "gift_id", "first at a:1:3", "t=777",
                       "Findings: 1 new key, 1 new kind, 1 drift, 1 missing required key."] {
            #expect(listen.stderr.contains(needle), "\(needle) in:\n\(listen.stderr)")
        }
        #expect(!listen.stdout.contains("Findings"), "the report is on stderr only")
    }

    /// The README's example ("Audit: when the service changes") is what the command prints for that capture.
    @Test func readmeExampleIsWhatTheAuditPrints() throws {
        var messages: [String] = []
        for i in 0..<49 {
            messages.append(#"{"t":35,"u":"\#(100000001 + i % 5)","ac":"Taro","iurl":"","burl":"","gift_id":"2","gift_title":"Heart","coins":"1","count":"1","gift_rarity":3}"#)
        }
        messages.append(#"{"t":35,"u":"100000009","ac":"Hana","iurl":"","burl":"","gift_id":"2","gift_title":"Heart","coins":1,"count":"1","rankings":[{"ei":12,"r":3,"badge":"gold"}]}"#)
        messages.append(#"{"t":35,"u":"100000009","ac":"Hana","gift_id":"7","coins":"5","count":"1"}"#)
        messages += Array(repeating: #"{"t":130,"u":"100000004","ac":"Mika","sticker_id":"s-1"}"#, count: 3)
        messages += (0..<20).map { #"{"t":1,"u":"100000002","ac":"Hana","cm":"hi","lci":"\#(5 + $0)"}"# }
        let (folder, file) = try Self.recording(messages)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileHandle(forWritingTo: file).append(contentsOf: "garbage\n")

        let result = try BCStreamProcess.run(["audit", "live.ndjson"], in: folder)
        let readme = try String(contentsOf: BCStreamProcess.repository.appendingPathComponent("docs/audit.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```\n74 messages audited"))
        let end = try #require(readme[start.upperBound...].range(of: "```\n"))
        let example = String(readme[readme.index(start.lowerBound, offsetBy: 4)..<end.lowerBound])
        #expect(result.stdout == example)
    }
}

private extension FileHandle {
    func append(contentsOf text: String) throws {
        try seekToEnd()
        try write(contentsOf: Data(text.utf8))
        try close()
    }
}
