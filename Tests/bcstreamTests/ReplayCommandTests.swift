import BCMessages
import Foundation
import Testing
import TestSupport

@Suite struct ReplayCommandTests {
    /// `bcstream replay Tests/Payloads` serves every fixture, byte for byte and in order, to a client that is
    /// not this project's code (Python `websockets`), and answers its PING.
    @Test(.timeLimit(.minutes(1)))
    func replayServesEveryFixtureToAnIndependentClient() throws {
        let replay = try BCStreamProcess.start(["replay", "Tests/Payloads", "--interval", "0"])
        defer { replay.terminate() }
        let url = try #require(replay.readLine(), "replay prints its URL first")
        #expect(url.hasPrefix("ws://127.0.0.1:"))

        let client = try BCStreamProcess.runPython(["Tests/Peers/bcsvr_client.py", url, "fixture:key"])
        #expect(client.status == 0, "the client ends when replay closes: \(client.stderr)")
        let frames = try client.lines.map { try JSONDecoder().decode(String.self, from: Data($0.utf8)) }

        let payloads = BCStreamProcess.repository.appendingPathComponent("Tests/Payloads")
        let names = try FileManager.default.contentsOfDirectory(atPath: payloads.path)
            .filter { $0.hasSuffix(".json") }
            .map { String($0.dropLast(5)) }
            .sorted { (Int($0.prefix { $0 != "-" }) ?? .max, $0) < (Int($1.prefix { $0 != "-" }) ?? .max, $1) }
        let texts = try names.map { name in
            String(decoding: try Data(contentsOf: payloads.appendingPathComponent(name + ".json")), as: UTF8.self)
        }
        // The fixtures that end the live (by the t of their JSON) come last, each part in the folder's order.
        let ends = try texts.map { text in
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            return (object?["t"] as? Int).flatMap(BCType.init(rawValue:))?.endsLive == true
        }
        #expect(ends.filter { $0 }.count == 3, "t=8 twice and t=123")
        let ordered = zip(texts, ends).filter { !$0.1 }.map(\.0) + zip(texts, ends).filter { $0.1 }.map(\.0)
        let expected = ordered.map { "MSG\tfixture:key\t" + $0 }
        #expect(frames.filter { $0 != "ACK" } == expected, "every fixture once, in order, exactly as stored")
        #expect(frames.contains("ACK"), "PING is answered")
        #expect(replay.wait() == 0)
    }

    /// Without a terminal, replay stops once every channel has played everything, not once the first has: a
    /// channel subscribed while another is playing gets every fixture, then replay exits.
    @Test(.timeLimit(.minutes(1)))
    func withoutATerminalReplayStopsOnceEveryChannelHasPlayedEverything() async throws {
        let fixtures = ["23-viewer-count-changed-44-online", "23-viewer-count-changed-61-online", "8-live-ended-bare"]
            .map { BCStreamProcess.repository.appendingPathComponent("Tests/Payloads/\($0).json").path }
        // Five seconds apart: the second channel starts after the first one's second fixture, so it ends at least
        // five seconds after the first, which stopped replay (half a second after the first channel) before. The
        // second client's interpreter is started first and subscribes on "go": its subscription takes
        // milliseconds, not the seconds a Python start-up takes on a loaded machine (which once missed the window).
        let replay = try PeerProcess(executable: BCStreamProcess.executable.path,
                                     arguments: ["replay"] + fixtures + ["--interval", "5"], name: "bcstream replay")
        defer { replay.stop() }
        let url = try await replay.report("ws://", within: .seconds(10))
        let second = try bcsvrClient(url: url, key: "second:key", onGo: true)
        defer { second.stop() }
        _ = try await second.reported("ready", within: .seconds(30))
        let first = try bcsvrClient(url: url, key: "first:key")
        defer { first.stop() }
        _ = try await first.reported(#""MSG\tfirst:key\t"#, times: 2, within: .seconds(20))
        try second.write(line: "go")
        _ = try await first.reported(#""MSG\tfirst:key\t{\"t\":8}""#, within: .seconds(20))
        _ = try await second.reported(#""MSG\tsecond:key\t{\"t\":8}""#, within: .seconds(20))
        #expect(second.transcript.filter { $0.hasPrefix(#""MSG\tsecond:key\t"#) }.count == 3, "\(second.transcript)")
        #expect(try await replay.exitStatus(within: .seconds(10)) == 0)
    }

    /// Run from a folder of the user's that is not the checkout: a relative path is found there, and a fixture
    /// name that is no file there is still found in the checkout's fixtures.
    @Test(.timeLimit(.minutes(1)))
    func replayFindsFilesWhereTheUserStands() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-cwd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let recorded = #"{"key":"rec:1","text":"MSG\trec:1\t{\"t\":23,\"online_viewer_num\":7}","time":"2026-11-22T02:30:11.000Z"}"#
        try Data((recorded + "\n").utf8).write(to: directory.appendingPathComponent("session.ndjson"))

        let missing = try BCStreamProcess.run(["replay", "nothing.ndjson"], in: directory)
        #expect(missing.status == 1, "a missing file is not a usage error")
        #expect(missing.stderr.contains("no such file or folder: nothing.ndjson"))
        #expect(!missing.stderr.contains("Usage:"))

        let replay = try BCStreamProcess.start(["replay", "8-live-ended-bare", "session.ndjson", "--interval", "0"],
                                               in: directory)
        defer { replay.terminate() }
        let url = try #require(replay.readLine(), "replay prints its URL first")
        let client = try BCStreamProcess.runPython(["Tests/Peers/bcsvr_client.py", url, "mine:1"])
        #expect(client.status == 0, "\(client.stderr)")
        let frames = try client.lines.map { try JSONDecoder().decode(String.self, from: Data($0.utf8)) }
        let end = try String(decoding: Data(contentsOf: BCStreamProcess.repository
                                                .appendingPathComponent("Tests/Payloads/8-live-ended-bare.json")),
                             as: UTF8.self)
        #expect(frames.filter { $0 != "ACK" } == ["MSG\tmine:1\t{\"t\":23,\"online_viewer_num\":7}", "MSG\tmine:1\t" + end],
                "the recording from here, then the checkout's fixture, which ends the live, last")
        #expect(replay.wait() == 0)
    }

    /// `--tls-cert` and `--tls-key` go together; a file that cannot be used is named, with what to do.
    @Test(.timeLimit(.minutes(1)))
    func tlsOptionsAreCheckedAndTheirFilesNamed() throws {
        let alone = try BCStreamProcess.run(["replay", "--tls-cert", "server.pem"])
        #expect(alone.status == 64)
        #expect(alone.stderr.contains("--tls-cert and --tls-key go together"), "stderr: \(alone.stderr)")

        let missing = try BCStreamProcess.run(["replay", "8", "--tls-cert", "/nonexistent/server.pem",
                                               "--tls-key", "/nonexistent/server.key"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot read the TLS certificate /nonexistent/server.pem"),
                "stderr: \(missing.stderr)")
        #expect(missing.stderr.contains("check --tls-cert and --tls-key"))
    }

    /// `--max-channels` caps the channels (distinct keys) the server keeps: the SUB that would open one more is
    /// answered ERR, saying so, and the connection closed, while the channels within the cap play on. Without the
    /// option the cap is still 10,000.
    @Test(.timeLimit(.minutes(1)))
    func maxChannelsRefusesTheChannelPastTheCapAndKeepsItsDefault() async throws {
        // The help as one line: it is wrapped to the terminal's width.
        let help = try BCStreamProcess.run(["replay", "--help"]).stdout
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("--max-channels <max-channels> Channels (distinct keys) kept at once"), "\(help)")
        #expect(help.contains("gets ERR and a close. (default: 10000)"), "the default is unchanged")
        #expect(help.contains("A guard against a flood of keys"), "the help says why the cap exists")
        let bad = try BCStreamProcess.run(["replay", "--max-channels", "0"])
        #expect(bad.status == 64 && bad.stderr.contains("--max-channels must be at least 1"), "\(bad.stderr)")

        let fixtures = ["23-viewer-count-changed-44-online", "23-viewer-count-changed-61-online"]
            .map { BCStreamProcess.repository.appendingPathComponent("Tests/Payloads/\($0).json").path }
        // Looping, so that a channel always has a next message: a subscriber that joins a channel already playing
        // receives what is sent from then on, and without `--loop` this two-item playlist was over 5 s after the
        // first subscription. Under the suite's load the steps below took longer than that, and the last
        // subscriber of first:key waited for a message that never came (two failures in three runs).
        let replay = try PeerProcess(executable: BCStreamProcess.executable.path,
                                     arguments: ["replay"] + fixtures + ["--interval", "1", "--loop", "--keep-open",
                                                                         "--max-channels", "2"],
                                     name: "bcstream replay")
        defer { replay.stop() }
        let url = try await replay.report("ws://", within: .seconds(10))
        func client(_ key: String) throws -> PeerProcess { try bcsvrClient(url: url, key: key) }
        let first = try client("first:key")
        defer { first.stop() }
        let second = try client("second:key")
        defer { second.stop() }
        _ = try await first.reported(#""MSG\tfirst:key\t"#, within: .seconds(20))
        _ = try await second.reported(#""MSG\tsecond:key\t"#, within: .seconds(20))

        // A third key is one channel too many: ERR, then the server closes (the client ends on the close).
        let third = try BCStreamProcess.runPython(["Tests/Peers/bcsvr_client.py", url, "third:key"])
        #expect(third.status == 0, "the server closed the connection: \(third.stderr)")
        #expect(third.lines.first == #""ERR\tthe server holds 2 channels already""#, "\(third.lines)")
        #expect(!third.lines.contains { $0.hasPrefix(#""MSG"#) })
        // A key already held is no new channel: a second subscriber of it is served (the channel's next message,
        // within a second).
        let again = try client("first:key")
        defer { again.stop() }
        _ = try await again.reported(#""MSG\tfirst:key\t"#, within: .seconds(20))
    }
}

/// Tests/Peers/bcsvr_client.py subscribed to `key` at `url`: it prints every line the server sends. With `onGo`
/// it prints "ready" and subscribes once `write(line: "go")` tells it to.
private func bcsvrClient(url: String, key: String, onGo: Bool = false) throws -> PeerProcess {
    try PeerProcess(executable: "/usr/bin/env",
                    arguments: ["python3", "-u", PeerScript.directory + "/bcsvr_client.py", url, key]
                        + (onGo ? ["--on-go"] : []),
                    name: key)
}
