import BCListener
import BCMessages
import BCReplay
import Foundation
import Testing

@Suite struct ReplayLoaderTests {
    /// The fixture names in the folder's order: by `t`, then name; names without a `t` last.
    static func folderOrder(_ names: [String]) -> [String] {
        names.sorted { (Int($0.prefix { $0 != "-" }) ?? .max, $0) < (Int($1.prefix { $0 != "-" }) ?? .max, $1) }
    }

    /// Whether a fixture ends the live, by the `t` its JSON holds, read here with JSONSerialization.
    static func endsLive(_ name: String) throws -> Bool {
        let object = try JSONSerialization.jsonObject(with: Checkout.bytes(of: name)) as? [String: Any]
        return (object?["t"] as? Int).flatMap(BCType.init(rawValue:))?.endsLive == true
    }

    @Test func withNoArgumentEveryFixtureOfTheDefaultFolderPlaysByTThenNameTheLiveEndsLast() throws {
        let playlist = try Checkout.loader.load(arguments: [])
        #expect(playlist.problems.isEmpty)
        let names = try Checkout.fixtureNames()
        #expect(playlist.items.count == names.count)
        let ordered = Self.folderOrder(names)
        let ending = try ordered.filter(Self.endsLive)
        #expect(ending == ["8-live-ended-bare", "8-live-ended-with-delay-hint", "123-stream-ended-bare"])
        let expected = ordered.filter { !ending.contains($0) } + ending
        #expect(playlist.items.compactMap(\.fixtureName) == expected)
        #expect(playlist.items.first?.fixtureName?.hasPrefix("1-comment-") == true)
        #expect(playlist.items.last?.fixtureName == "123-stream-ended-bare")
        #expect(playlist.items.dropLast(ending.count).last?.fixtureName == "999-unknown-future-kind")

        let kept = try Checkout.loader.load(arguments: [], liveEndsLast: false)
        #expect(kept.items.compactMap(\.fixtureName) == ordered, "--keep-order: the folder's order exactly")
        #expect(playlist.items.first?.location.file.hasPrefix("Tests/Payloads/") == true)
        for item in playlist.items {
            let name = try #require(item.fixtureName)
            #expect(Data(item.text.utf8) == (try Checkout.bytes(of: name)), "\(name) is sent byte for byte")
        }
    }

    @Test func withoutTheDefaultFolderTheErrorSaysWhatToPass() throws {
        let directory = try TemporaryDirectory()
        let loader = ReplayLoader(currentDirectory: directory.path)
        let error = #expect(throws: ReplayError.self) { try loader.load(arguments: []) }
        #expect(error == .defaultFolderMissing(folder: "Tests/Payloads", currentDirectory: directory.path,
                                               argument: nil))
        let text = try #require(error?.description)
        #expect(text.contains("no Tests/Payloads folder in \(directory.path)"))
        #expect(text.contains("a fixture file (.json"))
        #expect(text.contains("a recording (.ndjson"))

        let lookup = #expect(throws: ReplayError.self) { try loader.load(arguments: ["35"]) }
        #expect(lookup?.description.hasPrefix("cannot look up \"35\": there is no Tests/Payloads folder") == true)
    }

    /// (argument, description with {n} for the number of fixtures it names, the names it selects). The counts
    /// come from the folder, so adding a fixture does not break the test.
    @Test(arguments: [
        ("35", "t=35 (gift): {n}", "35-"),
        ("t=35", "t=35 (gift): {n}", "35-"),
        ("gift", "gift (t=35): {n}", "35-"),
        ("Gift", "gift (t=35): {n}", "35-"),
        ("viewerCountChanged", "viewerCountChanged (t=23): {n}", "23-"),
        ("viewer-count-changed", "viewerCountChanged (t=23): {n}", "23-"),
        ("unknown", "kinds not in the catalogue: {n}", "unknown"),
        ("200", "t=200 (unknown kind): {n}", "200-"),
        ("35-gift-small-heart", "35-gift-small-heart-captured-shape", "35-gift-small-heart-"),
        ("35-gift-small-heart-captured-shape", "35-gift-small-heart-captured-shape", "35-gift-small-heart-"),
        ("35-gift-small-heart-captured-shape.json", "35-gift-small-heart-captured-shape", "35-gift-small-heart-"),
        ("35-gift-count", "35-gift-count-…: {n}", "35-gift-count-"),
    ])
    func aWordNamesFixturesOfTheDefaultFolder(_ argument: String, _ template: String, _ selected: String) throws {
        let source = try Checkout.loader.source(for: argument)
        guard case .selection(let selection) = source else {
            Issue.record("\(argument) gave \(source)")
            return
        }
        let names = try Checkout.fixtureNames(in: Checkout.payloads)
        let count = names.filter { name in
            if selected == "unknown" {
                return Int(name.prefix { $0 != "-" }).flatMap(BCType.init(rawValue:)) == nil
            }
            return name.hasPrefix(selected)
        }.count
        let description = template.replacingOccurrences(of: "{n}", with: "\(count) fixture\(count == 1 ? "" : "s")")
        #expect(selection.description == description)
        let playlist = try Checkout.loader.load([source])
        #expect(playlist.items.count == selection.fixtures.count)
        for item in playlist.items {
            let name = try #require(item.fixtureName)
            #expect(Data(item.text.utf8) == (try Checkout.bytes(of: name)))
            #expect(item.location == ReplaySourceLocation(file: "Tests/Payloads/\(name).json", line: 1))
        }
    }

    @Test func aTSelectsEveryFixtureOfThatTInOrder() throws {
        let playlist = try Checkout.loader.load(arguments: ["8"])
        #expect(playlist.items.compactMap(\.fixtureName) == ["8-live-ended-bare", "8-live-ended-with-delay-hint"])
    }

    @Test func argumentsPlayInTheOrderGivenTheLiveEndsLast() throws {
        let arguments = ["8-live-ended-bare", "23", "Tests/Payloads/3-join-wire-shape.json"]
        let playlist = try Checkout.loader.load(arguments: arguments)
        let viewerCounts = try Checkout.fixtureNames(in: Checkout.payloads).filter { $0.hasPrefix("23-") }.sorted()
        #expect(playlist.items.compactMap(\.fixtureName)
                == viewerCounts + ["3-join-wire-shape", "8-live-ended-bare"])
        #expect(playlist.items.dropLast().last?.location.file == "Tests/Payloads/3-join-wire-shape.json")

        let kept = try Checkout.loader.load(arguments: arguments, liveEndsLast: false)
        #expect(kept.items.compactMap(\.fixtureName) == ["8-live-ended-bare"] + viewerCounts + ["3-join-wire-shape"])
    }

    /// A recording is a session as it happened: its frames keep their order, an end of the live included.
    @Test func aRecordingKeepsItsOrderOnlyFixturesMove() throws {
        let directory = try TemporaryDirectory()
        try directory.write("session.ndjson", [
            try recordedLine("2026-11-22T02:30:11.000Z", "MSG\tk\t{\"t\":8}"),
            try recordedLine("2026-11-22T02:30:12.000Z", "MSG\tk\t{\"t\":1,\"cm\":\"after the end\"}"),
        ].joined(separator: "\n"))
        let loader = ReplayLoader(currentDirectory: directory.path, defaultFolder: Checkout.payloads)
        let playlist = try loader.load(arguments: ["123", "session.ndjson", "3-join-wire-shape"])
        #expect(playlist.items.map(\.text) == [
            "MSG\tk\t{\"t\":8}", "MSG\tk\t{\"t\":1,\"cm\":\"after the end\"}",
            String(decoding: try Checkout.bytes(of: "3-join-wire-shape"), as: UTF8.self),
            String(decoding: try Checkout.bytes(of: "123-stream-ended-bare"), as: UTF8.self),
        ])
    }

    /// The user stands in a folder of their own: what they typed is found there first, and only a word that is
    /// no file or folder there names fixtures of the fixture folder, which lies elsewhere (the checkout).
    @Test func pathsResolveWhereTheUserStandsFirstThenNamesInTheFixtureFolder() throws {
        let directory = try TemporaryDirectory()
        try directory.write("8-live-ended-bare.json", #"{"t":1,"cm":"mine, not the checkout's"}"#)
        try directory.write("session.ndjson", try recordedLine("2026-11-22T02:30:11.000Z", "MSG\tk\t{\"t\":23}"))
        try FileManager.default.createDirectory(atPath: directory.path + "/gift", withIntermediateDirectories: false)
        try directory.write("gift/35-mine.json", #"{"t":35}"#)
        let loader = ReplayLoader(currentDirectory: directory.path, defaultFolder: Checkout.payloads)

        #expect(try loader.source(for: "8-live-ended-bare.json") == .fixture(path: "8-live-ended-bare.json"))
        #expect(try loader.source(for: "session.ndjson") == .recording(path: "session.ndjson"))
        #expect(try loader.source(for: "./session.ndjson") == .recording(path: "./session.ndjson"))
        #expect(try loader.source(for: "gift") == .folder(path: "gift"), "a folder here wins over the kind")
        let mine = try loader.load(arguments: ["8-live-ended-bare.json", "session.ndjson", "gift"])
        #expect(mine.items.map(\.text) == [#"{"t":1,"cm":"mine, not the checkout's"}"#, "MSG\tk\t{\"t\":23}",
                                           #"{"t":35}"#])
        #expect(mine.items.map(\.location.file) == ["8-live-ended-bare.json", "session.ndjson", "gift/35-mine.json"],
                "items show the paths as typed")

        // Nothing of that name here: the fixture folder's.
        let named = try loader.load(arguments: ["8-live-ended-bare", "35"])
        let gifts = try Checkout.fixtureNames().filter { $0.hasPrefix("35-") }.sorted()
        #expect(named.items.compactMap(\.fixtureName) == gifts + ["8-live-ended-bare"], "the end of the live last")
        #expect(named.items.last?.text == String(decoding: try Checkout.bytes(of: "8-live-ended-bare"), as: UTF8.self))
        #expect(named.items.last?.location.file == Checkout.payloads + "/8-live-ended-bare.json")
        #expect(try loader.load(arguments: []).items.count == (try Checkout.fixtureNames()).count)

        #expect(throws: ReplayError.notFound(path: "elsewhere.ndjson")) {
            try loader.load(arguments: ["elsewhere.ndjson"])
        }
    }

    @Test func aFolderIsEveryJSONDirectlyInsideIncludingTheInvalidOnesWhenAskedFor() throws {
        let playlist = try Checkout.loader.load(arguments: ["Tests/Payloads/Invalid"])
        let names = try Checkout.fixtureNames(in: Checkout.payloads + "/Invalid")
        #expect(playlist.items.count == names.count)
        #expect(playlist.items.first?.fixtureName == "1-comment-cm-missing")
        #expect(playlist.items.dropLast().last?.fixtureName == "truncated-json", "names without a t come last")
        #expect(playlist.items.last?.fixtureName == "8-live-ended-delay-bool",
                "but after them the end of the live, malformed as it is: the listener ends on it too")
        let empty = try #require(playlist.items.first { $0.fixtureName == "empty" })
        #expect(empty.text == (try String(contentsOfFile: Checkout.payloads + "/Invalid/empty.json", encoding: .utf8)))
    }

    @Test func anUnknownWordSaysWhatWasExpectedAndWhatItMayHaveMeant() throws {
        let error = #expect(throws: ReplayError.self) { try Checkout.loader.load(arguments: ["gfit"]) }
        #expect(error == .unknownSource(argument: "gfit", folder: "Tests/Payloads", suggestions: ["gift"]))
        let text = try #require(error?.description)
        #expect(text.hasPrefix("\"gfit\" is no file or folder, and names no fixture, t or kind in Tests/Payloads."))
        #expect(text.contains("Did you mean gift?"))
        #expect(text.contains("a t (35) or a kind (gift)"))

        let heart = #expect(throws: ReplayError.self) { try Checkout.loader.load(arguments: ["small-heart"]) }
        #expect(heart?.description.contains("Did you mean 35-gift-small-heart-captured-shape?") == true)

        #expect(throws: ReplayError.unknownSource(argument: "42", folder: "Tests/Payloads", suggestions: [])) {
            try Checkout.loader.load(arguments: ["42"])
        }
    }

    @Test func aMissingPathIsNotFound() {
        #expect(throws: ReplayError.notFound(path: "nope/35-gift.json")) {
            try Checkout.loader.load(arguments: ["nope/35-gift.json"])
        }
        #expect(throws: ReplayError.notFound(path: "session.ndjson")) {
            try Checkout.loader.load(arguments: ["session.ndjson"])
        }
    }

    @Test func aFileThatIsNeitherFixtureNorRecordingIsAnError() throws {
        let directory = try TemporaryDirectory()
        try directory.write("notes.txt", "hello\n")
        let loader = ReplayLoader(currentDirectory: directory.path)
        let error = #expect(throws: ReplayError.self) { try loader.load(arguments: ["notes.txt"]) }
        #expect(error == .neitherFixtureNorRecording(path: "notes.txt"))
        #expect(error?.description.contains(#"one {"time":"…Z","key":"…","text":"…"} a line"#) == true)
    }

    @Test func aFolderWithoutFixturesIsAnError() throws {
        let directory = try TemporaryDirectory()
        try directory.write("readme.md", "nothing")
        #expect(throws: ReplayError.noFixtures(folder: directory.path)) {
            try ReplayLoader().load(arguments: [directory.path])
        }
    }

    @Test func anUnreadableFixtureOfAFolderIsAProblemAndTheRestPlays() throws {
        let directory = try TemporaryDirectory()
        try directory.write("8-live-ended-bare.json", #"{"t":8}"#)
        try directory.write("1-comment-latin1.json", Data([0x7B, 0x22, 0xE9, 0x22, 0x7D]))
        let playlist = try ReplayLoader(currentDirectory: directory.path).load(arguments: ["."])
        #expect(playlist.items.map(\.text) == [#"{"t":8}"#])
        #expect(playlist.problems.map(\.description)
                == ["./1-comment-latin1.json:1: cannot be read (it is not UTF-8 text), left out"])
    }

    @Test func aSingleFixtureFileIsSentExactlyEvenWithATrailingNewline() throws {
        let directory = try TemporaryDirectory()
        try directory.write("mine.json", "{\"t\":1,\"cm\":\"hi\"}\n")
        let playlist = try ReplayLoader(currentDirectory: directory.path).load(arguments: ["mine.json"])
        #expect(playlist.items == [.fixture(name: "mine", json: "{\"t\":1,\"cm\":\"hi\"}\n", file: "mine.json")])
    }
}

@Suite struct RecordingTests {
    static func recording() throws -> String {
        [
            try recordedLine("2026-11-22T02:30:11.123Z", "ACK"),
            try recordedLine("2026-11-22T02:30:11.623Z", "MSG\t118f91f:UdoBre1M\t{\"t\":23,\"online_viewer_num\":44}"),
            "{\"time\":\"2026-11-22T02:30:12Z\",\"key\":\"118f91f:UdoBre1M\"}",
            "",
            "not json at all",
            try recordedLine("2026-11-22T02:30:14.123Z", "MSG\t118f91f:UdoBre1M\t{\"t\":8}"),
            #"{"time":"yesterday","key":"k","text":"ACK"}"#,
            #"[1,2]"#,
            #"{"time":"2026-11-22T02:30:15Z","key":"k","text":3}"#,
            "",
        ].joined(separator: "\n")
    }

    @Test func everyFrameIsAnItemAtItsLineAndOffset() throws {
        let playlist = RecordingParser.parse(try Self.recording(), file: "session.ndjson")
        #expect(playlist.items.map(\.location.line) == [1, 2, 6])
        #expect(playlist.items.map(\.offset) == [.zero, .milliseconds(500), .milliseconds(3000)])
        #expect(playlist.items.map(\.text) == [
            "ACK", "MSG\t118f91f:UdoBre1M\t{\"t\":23,\"online_viewer_num\":44}", "MSG\t118f91f:UdoBre1M\t{\"t\":8}",
        ])
        #expect(playlist.items.allSatisfy { $0.fixtureName == nil })
    }

    /// A recording is read with the fast engine's tape first: for every kind of line it must give the frame
    /// JSONDecoder gives (and fail where it fails, so that JSONDecoder's words report the line).
    static let tapeLines = [
        #"{"key":"k:1","text":"MSG\tk:1\t{\"t\":1,\"cm\":\"\\u3053\\uD83C\\uDF38 \\\"q\\\" \\\\\"}","time":"2026-11-22T02:30:11.123Z"}"#,
        #"{"time":"2026-11-22T02:30:11Z","key":"é\u00e9","text":"ACK","binary":false}"#,
        #"{"time":"2026-11-22T02:30:11.5Z","key":"k","bytes":"AAEC/w==","binary":true}"#,
        #"{"time":"2026-11-22T02:30:11.123Z","key":"k","bytes":"AAEC","refused":"too big","size":9}"#,
        #"{"time":"2026-11-22T02:30:11.123Z","key":"k","text":"a","key":"second"}"#,
        #"{"time":"yesterday","key":"k","text":"ACK"}"#, #"{"time":"2026-11-22T02:30:11Z","key":"k","text":3}"#,
        #"{"time":"2026-11-22T02:30:11Z","key":"k","text":"\ud800"}"#, #"[1]"#, "not json",
    ]

    @Test(arguments: tapeLines)
    func theTapeReadsEachLineAsJSONDecoderDoes(_ line: String) {
        let data = Data(line.utf8)
        let fast = try? TapeJSONDecoder().decode(RecordedFrame.self, from: data)
        let reference = try? JSONDecoder().decode(RecordedFrame.self, from: data)
        #expect(fast == reference, "\(line)")
        // The first five are frames: both must read them (equal failures alone would prove nothing).
        let frames = 5
        if Self.tapeLines.firstIndex(of: line).map({ $0 < frames }) == true { #expect(fast != nil, "\(line)") }
    }

    /// Lines are cut on the bytes, so a recording saved with Windows line ends (CRLF) loads as it is: with a split on
    /// Characters, "\r\n" is one Character and nothing was cut at all.
    @Test func aRecordingWithCRLFLineEndsLoadsTheSame() throws {
        let unix = RecordingParser.parse(try Self.recording(), file: "session.ndjson")
        let windows = RecordingParser.parse(try Self.recording().replacingOccurrences(of: "\n", with: "\r\n"),
                                            file: "session.ndjson")
        #expect(windows.items.map(\.text) == unix.items.map(\.text))
        #expect(windows.items.map(\.location.line) == unix.items.map(\.location.line))
        #expect(windows.problems.map(\.location.line) == unix.problems.map(\.location.line))
    }

    @Test func aMalformedLineIsAProblemWithFileAndLineAndTheRestStillLoads() throws {
        let problems = RecordingParser.parse(try Self.recording(), file: "session.ndjson").problems
        #expect(problems.map(\.location.description)
                == ["session.ndjson:3", "session.ndjson:5", "session.ndjson:7", "session.ndjson:8", "session.ndjson:9"])
        let messages = problems.map(\.message)
        #expect(messages[0].hasPrefix(#"not a recorded frame (no "text"), left out; expected a line like "#
                                      + #"{"time":"2026-11-22T02:30:11.123Z","key":"…","text":"…"}, found "#
                                      + #"{"time""#))
        #expect(messages[1].hasPrefix("not a recorded frame (not JSON)"))
        #expect(messages[2].contains("Expected an ISO 8601 time"))
        #expect(messages[3].hasPrefix("not a recorded frame (not a JSON object)"))
        #expect(messages[4].hasPrefix("not a recorded frame (\"text\" is not a string)"))
    }

    /// A hand-edited or hostile recording: its key is checked like any key, the frame left out, the rest played.
    @Test func aFrameWhoseKeyIsNotAChannelKeyIsAProblemAndTheRestLoads() throws {
        let good = try recordedLine("2026-11-22T02:30:11Z", "MSG\tk:1\t{\"t\":23}")
        let hostile = #"{"time":"2026-11-22T02:30:12Z","key":"k1\nSUB\tvictim\u001b[2J","text":"MSG\tk1\t{}"}"#
        let playlist = RecordingParser.parse([good, hostile, good].joined(separator: "\n"), file: "x.ndjson")
        #expect(playlist.items.count == 2)
        let problem = try #require(playlist.problems.first)
        #expect(problem.description.hasPrefix("x.ndjson:2: the recorded frame's key: a key with a line break in it"))
        #expect(problem.description.contains(#"k1\u{A}SUB\tvictim\u{1B}[2J"#))
        #expect(!problem.description.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }

    @Test(arguments: ["session.ndjson", "session.log", "session.json"])
    func aRecordingIsRecognisedByItsExtensionOrItsFirstLine(_ name: String) throws {
        let directory = try TemporaryDirectory()
        try directory.write(name, try Self.recording())
        let loader = ReplayLoader(currentDirectory: directory.path)
        #expect(try loader.source(for: name) == .recording(path: name))
        let playlist = try loader.load(arguments: [name])
        #expect(playlist.items.count == 3)
        #expect(playlist.problems.first?.location == ReplaySourceLocation(file: name, line: 3))
    }

    @Test func anNDJSONFileOfOnlyBadLinesIsStillARecordingWithProblems() throws {
        let directory = try TemporaryDirectory()
        try directory.write("broken.ndjson", "oops\n{}\n")
        let playlist = try ReplayLoader(currentDirectory: directory.path).load(arguments: ["broken.ndjson"])
        #expect(playlist.items.isEmpty)
        #expect(playlist.problems.map(\.location.line) == [1, 2])
    }

    @Test func aFrameRecordedByTheRecorderReadsBackExactly() throws {
        let text = "MSG\t118f91f:UdoBre1M\t{\"t\":1,\"cm\":\"\\uD83C\\uDF38 \\/ tab\\there\"}"
        let line = try recordedLine("2026-11-22T02:30:11.123Z", text)
        let playlist = RecordingParser.parse(line + "\n", file: "r.ndjson")
        #expect(playlist.items.map(\.text) == [text])
        #expect(playlist.items.first?.content
                == .recordedFrame(text: text, recordedKey: "118f91f:UdoBre1M", offset: .zero))
    }
}

@Suite struct RecordingBytesTests {
    @Test("a recorded binary frame replays as binary bytes; a refused message is reported, not replayed")
    func binaryAndRefusedLines() {
        let text = """
            {"binary":true,"bytes":"AAEC/w==","key":"k","time":"2026-11-22T02:30:11.000Z"}
            {"bytes":"TVNH","key":"k","refused":"larger than 1048576 bytes (closed with 1009)","size":2000000,"time":"2026-11-22T02:30:12.000Z","truncated":true}
            {"key":"k","text":"MSG\\tk\\t{\\"t\\":8}","time":"2026-11-22T02:30:13.000Z"}

            """
        let playlist = RecordingParser.parse(text, file: "r.ndjson")
        #expect(playlist.items.count == 2)
        #expect(playlist.items.first?.binaryFrame == [0, 1, 2, 0xFF])
        #expect(playlist.items.first?.frame(for: "mine") == nil)
        #expect(playlist.items.last?.frame(for: "mine") == "MSG\tmine\t{\"t\":8}")
        #expect(playlist.items.last?.offset == .seconds(2))
        #expect(playlist.problems.map(\.location.line) == [2])
        #expect(playlist.problems.first?.message.contains("refused") == true)
        #expect(playlist.problems.first?.message.contains("3 of its 2000000 bytes kept") == true)
    }
}
