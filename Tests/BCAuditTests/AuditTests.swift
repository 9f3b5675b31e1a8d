import BCAudit
import BCMessages
import Foundation
import Testing

/// Messages as the wire could send them after the service changed: a gift with a key the model does not know
/// (at the top and inside a ranking), gifts whose `coins` comes as a string and as a boolean, a gift without its
/// required `gift_id`, and a kind the model does not know.
enum Drifted {
    static let newKey = #"{"t":35,"u":"100000001","ac":"Taro","gift_id":"2","gift_title":"Heart","coins":"1","count":1,"sparkle":{"level":3},"rankings":[{"ei":1,"x_new":"9"}]}"#
    static let numberCoins = #"{"t":35,"u":"100000001","ac":"Taro","gift_id":"2","gift_title":"Heart","coins":300,"count":1}"#
    static let boolCoins = #"{"t":35,"u":"100000001","ac":"Taro","gift_id":"2","gift_title":"Heart","coins":true,"count":1}"#
    static let missing = #"{"t":35,"u":"100000001","ac":"Taro","gift_title":"Heart","coins":"1","count":1}"#
    static let newKind = #"{"t":777,"mission":{"id":"m-1"}}"#
    static let comment = #"{"t":1,"u":"100000002","ac":"Hana","cm":"hi","lci":"5"}"#
    static let all = [newKey, numberCoins, boolCoins, missing, newKind, comment]
}

/// The shapes a capture comes in; each holds the same messages.
enum CaptureShape: String, CaseIterable, CustomTestStringConvertible {
    case bareJSON, msgLines, recording, strictNDJSONLog

    var testDescription: String { rawValue }

    static func quoted(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    func lines(_ messages: [String]) -> [String] {
        switch self {
        case .bareJSON:
            return messages
        case .msgLines:
            return ["ACK"] + messages.map { "MSG\tk:1\t\($0)" }
        case .recording:
            return messages.map {
                "{\"key\":\"k:1\",\"text\":\(Self.quoted("MSG\tk:1\t\($0)")),\"time\":\"2026-11-22T02:30:11.123Z\"}"
            } + [#"{"binary":true,"bytes":"AAEC","key":"k:1","time":"2026-11-22T02:30:11.123Z"}"#]
        case .strictNDJSONLog:
            // `listen --strict --format ndjson`: a message with a key the model does not know fails and keeps its
            // wire text in `raw`; an unknown kind keeps its keys in `raw`; a clean message keeps only the model's
            // re-encoding (`message`).
            return messages.map { message in
                let t = AuditInput.kind(ofMessage: message) ?? 0
                if message == Drifted.comment {
                    return #"{"t":1,"kind":"comment","key":"k:1","message":{"ac":"Hana","cm":"hi","lci":"5","t":1,"u":"100000002"}}"#
                }
                if BCType(rawValue: t) == nil { return "{\"t\":\(t),\"kind\":\"unknown\",\"key\":\"k:1\",\"raw\":\(message)}" }
                return "{\"t\":\(t),\"kind\":\"gift\",\"key\":\"k:1\",\"error\":\"strict\",\"raw\":\(Self.quoted(message))}"
            }
        }
    }
}

@Suite struct AuditTests {
    static func audit(_ lines: [String], limits: Audit.Limits = Audit.Limits()) -> AuditReport {
        var audit = Audit(limits: limits)
        for (index, line) in lines.enumerated() { audit.add(line: line, at: AuditLocation(source: "live", line: index + 1)) }
        return audit.report()
    }

    @Test("a new key, a new kind, a drift and a missing required key are found", arguments: CaptureShape.allCases)
    func findsEveryKindOfDrift(_ shape: CaptureShape) throws {
        let report = Self.audit(shape.lines(Drifted.all))
        let gift = try #require(report.kinds.first { $0.t == 35 })
        #expect(gift.messages == 4)
        #expect(gift.newKeys.map(\.path) == ["rankings[].x_new", "sparkle"])
        let sparkle = try #require(gift.newKeys.first { $0.path == "sparkle" })
        #expect(sparkle.types == ["object": 1] && sparkle.sample == #"{"level":3}"# && sparkle.count == 1)

        let coins = try #require(gift.drift.first { $0.path == "coins" })
        #expect(coins.declared == "int")
        #expect(coins.types == ["string": 2, "number": 1, "boolean": 1])
        #expect(coins.unexpected == ["boolean"], "an int is read from a number or a string, never a boolean")
        #expect(coins.unexpectedSample == "true")

        #expect(gift.missing.map(\.path) == ["gift_id"])
        #expect(gift.missing.first?.count == 1)

        #expect(report.unknownKinds.map(\.t) == [777])
        #expect(report.unknownKinds.first?.sample == Drifted.newKind)
        #expect(report.findings == AuditReport.Findings(newKeys: 2, newKinds: 1, drift: 1, missingKeys: 1))
        if shape == .strictNDJSONLog {
            #expect(report.reencoded == 1 && report.kinds.first { $0.t == 1 }?.reencoded == 1)
        }
        if shape == .recording { #expect(report.badLines == 1) }
        if shape == .msgLines { #expect(report.skippedLines == 1) }
    }

    @Test func textNamesEveryFindingWithin80Columns() throws {
        let text = Self.audit(CaptureShape.recording.lines(Drifted.all)).text(columns: 80)
        for needle in ["sparkle", "rankings[].x_new", "coins (int)", "string 50%", "boolean 25%", "gift_id", "t=777",
                       "first at live:4", "Findings: 2 new keys, 1 new kind, 1 drift, 1 missing required key."] {
            #expect(text.contains(needle), "\(needle) in:\n\(text)")
        }
        let long = text.split(separator: "\n").filter { $0.unicodeScalars.count > 80 }
        #expect(long.isEmpty, "\(long)")
    }

    @Test func jsonIsStableAndRoundTrips() throws {
        let report = Self.audit(CaptureShape.bareJSON.lines(Drifted.all))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(report)
        #expect(try JSONDecoder().decode(AuditReport.self, from: data) == report)
        #expect(try encoder.encode(Self.audit(CaptureShape.bareJSON.lines(Drifted.all))) == data, "the same input, the same bytes")
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["schema"] as? String == "bcstream-audit/1")
        let text = String(decoding: data, as: UTF8.self)
        for needle in [#""path":"sparkle""#, #""path":"coins""#, #""unexpected":["boolean"]"#, #""t":777"#,
                       #""missing":[{"count":1"#] {
            #expect(text.contains(needle), "\(needle)")
        }
    }

    @Test func knownKeysAreListedWithTheirTypesWhenAsked() throws {
        var audit = Audit()
        for (index, line) in [Drifted.numberCoins, Drifted.comment].enumerated() {
            audit.add(line: line, at: AuditLocation(source: "live", line: index + 1))
        }
        #expect(audit.report().kinds.allSatisfy { $0.keys == nil }, "not unless asked")
        let report = audit.report(listingKnownKeys: true)
        let gift = try #require(report.kinds.first { $0.t == 35 }?.keys)
        #expect(gift.first { $0.path == "coins" } == AuditReport.KnownKey(
            path: "coins", declared: "int", optional: false, count: 1, types: ["number": 1]))
        #expect(gift.map(\.path) == ["ac", "coins", "count", "gift_id", "gift_title", "u"])
        #expect(report.text().contains("Known keys seen (declared form)"))
        #expect(report.findings.total == 0, "listing is not finding")
    }

    // MARK: - Against a baseline

    static let glow = #"{"t":35,"u":"100000001","ac":"Taro","gift_id":"2","gift_title":"Heart","coins":"1","count":1,"glow":true}"#

    /// An earlier report as `--format json --keys` wrote it, read back.
    static func baseline(_ lines: [String]) throws -> AuditReport {
        let data = try JSONEncoder().encode(audit(lines, listingKnownKeys: true))
        return try JSONDecoder().decode(AuditReport.self, from: data)
    }

    static func audit(_ lines: [String], listingKnownKeys: Bool) -> AuditReport {
        var audit = Audit()
        for (index, line) in lines.enumerated() { audit.add(line: line, at: AuditLocation(source: "live", line: index + 1)) }
        return audit.report(listingKnownKeys: listingKnownKeys)
    }

    @Test func againstABaselineOnlyWhatItDidNotHaveIsReported() throws {
        let monday = try Self.baseline([Drifted.newKey, Drifted.missing, Drifted.newKind])
        let tuesday = Self.audit([Drifted.newKey, Drifted.numberCoins, Drifted.missing, Drifted.newKind, #"{"t":888}"#,
                                  Self.glow], listingKnownKeys: true)
        let report = tuesday.comparing(with: monday, named: "monday.json")
        let gift = try #require(report.kinds.first { $0.t == 35 })
        #expect(gift.newKeys.map(\.path) == ["glow"], "sparkle and rankings[].x_new were there on Monday")
        #expect(gift.missing.isEmpty, "gift_id was missing on Monday too")
        #expect(report.unknownKinds.map(\.t) == [888])
        #expect(gift.drift.map(\.path) == ["coins"])
        #expect(gift.drift.first?.types == ["string": 3, "number": 1])
        #expect(report.findings == AuditReport.Findings(newKeys: 1, newKinds: 1, drift: 1, missingKeys: 0))
        #expect(gift.messages == 4, "the counts are Tuesday's")
        #expect(report.text().contains("Compared with monday.json"))
    }

    @Test func aTypeNeverSeenBeforeIsDriftEvenAlone() throws {
        let monday = try Self.baseline([Drifted.newKey])  // coins: a string
        let report = Self.audit([Drifted.numberCoins], listingKnownKeys: true).comparing(with: monday, named: "m")
        #expect(report.kinds.first?.drift.map(\.path) == ["coins"], "a number now, a string before")
        #expect(Self.audit([Drifted.numberCoins], listingKnownKeys: false).findings.total == 0, "no drift on its own")
    }

    @Test func theSameCaptureAgainHasNothingNew() throws {
        let lines = CaptureShape.recording.lines(Drifted.all)
        let report = Self.audit(lines, listingKnownKeys: true).comparing(with: try Self.baseline(lines), named: "m")
        #expect(report.findings.total == 0)
    }

    @Test func aCleanCaptureHasNoFindings() {
        let report = Self.audit([Drifted.comment, Drifted.numberCoins])
        #expect(report.findings.total == 0)
        #expect(report.text().contains("No drift"))
    }

    @Test func everyFixtureOfAKnownKindIsKnownToTheModel() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Payloads")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        var audit = Audit()
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            audit.add(message: text, at: AuditLocation(source: name, line: 1))
        }
        let report = audit.report()
        #expect(report.badLines == 0)
        #expect(report.kinds.flatMap(\.newKeys).map(\.path) == [], "the fixtures pass strict mode: no key is new")
        #expect(report.kinds.flatMap(\.missing).map(\.path) == [])
        #expect(report.kinds.map(\.t).count == BCType.allCases.count)
    }

    @Test(arguments: BCType.allCases)
    func wireFieldsAtTheTopAreWireKeys(_ type: BCType) {
        let top = type.wireFields?.map(\.path).filter { !$0.contains(".") && !$0.hasSuffix("[]") }
        #expect(top == type.wireKeys)
    }

    // MARK: - Hostile input

    @Test func distinctKeysBeyondTheLimitAreCountedAndSaid() throws {
        let keys = (0..<5000).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let report = Self.audit(["{\"t\":35,\(keys)}"], limits: Audit.Limits(maxPaths: 100))
        let gift = try #require(report.kinds.first)
        #expect(gift.newKeys.count <= 100)
        #expect(gift.untrackedKeys > 4800)
        #expect(report.limitsReached.count == 1)
        #expect(report.text().contains("Limit reached: more than 100 distinct key paths in t=35"))
    }

    @Test func unknownKindsBeyondTheLimitAreCountedAndSaid() {
        let lines = (1000..<1100).map { "{\"t\":\($0)}" }
        let report = Self.audit(lines, limits: Audit.Limits(maxUnknownKinds: 10))
        #expect(report.unknownKinds.count == 10 && report.untrackedUnknownKindMessages == 90)
        #expect(report.limitsReached.count == 1)
    }

    @Test func controlCharactersInKeysAndValuesAreEscapedInText() throws {
        let line = #"{"t":35,"\u001b]52;c;evil\u0007":"\u001b[2J","gift\u202eid":1,"\u0085x":"a\nb"}"#
        let report = Self.audit([line])
        #expect(report.kinds.first?.newKeys.count == 3)
        let text = report.text()
        #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" })
        #expect(text.contains("\\u{1B}]52;c;evil\\u{7}"))
        #expect(text.contains("gift\\u{202E}id"))
    }

    @Test func aHugeKeyAndAHugeValueAreCut() throws {
        let key = String(repeating: "k", count: 100_000)
        let value = String(repeating: "v", count: 1_000_000)
        let report = Self.audit(["{\"t\":35,\"\(key)\":\"\(value)\"}"])
        let found = try #require(report.kinds.first?.newKeys.first)
        #expect(found.path.utf8.count < 200 && found.path.hasSuffix("…"))
        #expect(found.sample.hasSuffix("… (1000002 bytes)") && found.sample.count < 100)
    }

    @Test("bad lines are counted and quoted, never fatal", arguments: [
        ("garbage", "not JSON"),
        (String(repeating: "[", count: 100_000), "not JSON"),
        (String(repeating: "{\"a\":", count: 100_000), "not JSON"),
        ("[1,2]", "not JSON"),  // not an object: a message is one
        (#"{"u":"1"}"#, "without an integer t"),
        (#"{"t":"x"}"#, "without an integer t"),
        (#"{"t":35,"u":"\ud800"}"#, ""),
        ("{\"t\":35,\"u\":\"\u{1}\"}", "control character"),
        (#"{"binary":true,"bytes":"AAEC","key":"k:1","time":"2026-11-22T02:30:11.123Z"}"#, "binary"),
        (#"{"bytes":"AAEC","key":"k:1","refused":"too big","time":"2026-11-22T02:30:11.123Z"}"#, "refused"),
        ("MSG\tk:1", "MSG line"),
    ])
    func badLine(_ line: String, reason: String) {
        let report = Self.audit([line, Drifted.comment])
        #expect(report.kinds.first { $0.t == 1 }?.messages == 1, "the next line is read")
        if reason.isEmpty {
            #expect(report.badLines == 0)  // a lone surrogate is read as U+FFFD, as a lenient reader would
        } else if line == "[1,2]" {
            #expect(report.badLines == 1 && report.badLineSamples.first?.reason == "a message that is not a JSON object")
        } else {
            #expect(report.badLines == 1)
            #expect(report.badLineSamples.first?.reason.contains(reason) == true, "\(report.badLineSamples)")
        }
    }

    @Test func workGrowsLinearlyWithInput() {
        // This thread's CPU time, not the wall clock: with hundreds of tests sharing two cores, a wall-clock
        // ratio measured the other tests (a run saw 10x for 4x the input).
        func cpuSeconds() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        func seconds(_ count: Int) -> Double {
            let lines = Array(repeating: Drifted.newKey, count: count)
            let start = cpuSeconds()
            _ = Self.audit(lines)
            return cpuSeconds() - start
        }
        _ = seconds(200)
        let small = seconds(2000), large = seconds(8000)
        #expect(large < small * 8, "4x the input took \(large / small)x the time")
    }
}
