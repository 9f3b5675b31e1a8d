import Foundation
import TestSupport
import Testing

/// `bcstream listen <live page | live id | user page>`, the built binary, against the stand-in service
/// (`LiveServiceStandIn`: the REST API over HTTPS, a live over `wss://`, one test CA): the full path from a URL
/// to decoded messages, `--backlog`, `--wait`, and each way the API can fail.
@Suite(.timeLimit(.minutes(1))) struct ListenFromPageTests {
    struct Run {
        let status: Int32
        let lines: [String]
        let stderr: String
    }

    private func listen(_ arguments: [String], environment: [String: String] = [:],
                        within timeout: Duration = .seconds(20)) async throws -> Run {
        let process = try PeerProcess(executable: BCStreamProcess.executable.path, arguments: ["listen"] + arguments,
                                      name: "bcstream listen", environment: environment)
        defer { process.stop() }
        let status = try await process.exitStatus(within: timeout)
        let lines = try await process.lines.all(within: .seconds(5), "the end of bcstream's stdout")
        return Run(status: status, lines: lines, stderr: process.stderr)
    }

    private func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an object: \(line)")
    }

    @Test("a live page, through the API and wss://, to the live's end: backlog first, a comment seen twice once",
          arguments: ["text", "ndjson"])
    func livePageWithBacklog(format: String) async throws {
        let service = try await LiveServiceStandIn.start()
        defer { service.stop() }
        let run = try await listen(["https://www.mirrativ.com/live/Xq3Zk-8s_Ab4Cd5Ef6Gh7J", "--backlog",
                                    "--format", format] + service.apiArguments)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        if format == "ndjson" {
            let objects = try run.lines.map(object)
            #expect(objects.map { $0["kind"] as? String } == ["backlogComment", "backlogComment", "comment", "liveEnded"],
                    "stdout: \(run.lines)")
            #expect(objects.map { $0["backlog"] as? Bool } == [true, true, nil, nil])
            #expect(objects.allSatisfy { $0["key"] as? String == "test:Xq3Zk-8s_Ab4Cd5Ef6Gh7J" })
            let messages = objects.compactMap { $0["message"] as? [String: Any] }
            #expect(messages.prefix(2).map { $0["id"] as? String } == ["900001", "900002"], "oldest first")
            #expect(messages.prefix(2).map { $0["userName"] as? String } == ["テスト視聴者A", "テスト視聴者B"])
            #expect(messages.first?["createdAt"] as? Int == 1_540_124_930)
            #expect(messages.first?["isModerator"] as? Bool == true && messages.first?["isContinuousStreamer"] as? Bool == true)
            #expect(messages.dropFirst(2).first?["lci"] as? String == "900003", "900002 once: \(run.lines)")
        } else {
            #expect(run.lines.count == 4, "stdout: \(run.lines)")
            #expect(run.lines.prefix(2).allSatisfy { $0.hasPrefix("api    backlogComment       [backlog] ") })
            #expect(run.lines[0].hasSuffix(#"テスト視聴者A: first backlog comment\u{A}on two lines"#), "\(run.lines[0])")
            #expect(run.lines.filter { $0.contains("second backlog comment") }.count == 1)
            #expect(run.lines[2].contains("a live comment") && !run.lines[2].contains("[backlog]"))
            #expect(run.lines[3].contains("liveEnded"))
        }
        #expect(run.stderr.contains("dropped 1 live comment already shown"), "stderr: \(run.stderr)")
        #expect(service.api.transcript.contains {
            $0.hasPrefix("request path=/api/live/live_comments?live_id=Xq3Zk-8s_Ab4Cd5Ef6Gh7J")
        })
    }

    @Test("a bare live id and odd JSON types (a numeric live_id, flags as strings) follow the live too")
    func bareLiveIDWithOddTypes() async throws {
        let service = try await LiveServiceStandIn.start()
        defer { service.stop() }
        let run = try await listen(["odd-types"] + service.apiArguments)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.lines.count == 3 && run.lines.last?.contains("liveEnded") == true, "stdout: \(run.lines)")
    }

    @Test("a user page with --wait: polls while offline, follows the live once the user is on it")
    func userPageWaitsUntilLive() async throws {
        let service = try await LiveServiceStandIn.start()
        defer { service.stop() }
        let process = try PeerProcess(
            executable: BCStreamProcess.executable.path,
            arguments: ["listen", "https://www.mirrativ.com/user/9001234", "--wait", "--poll-interval", "1"]
                + service.apiArguments,
            name: "bcstream listen --wait")
        defer { process.stop() }
        // Offline for two polls, told on stderr.
        _ = try await service.api.reported("request path=/api/user/profile?user_id=9001234", times: 2,
                                           within: .seconds(10))
        _ = try await process.errorLines.first(within: .seconds(5), "the waiting line") {
            $0.contains("waiting for user 9001234 to go live; next check at")
        }
        #expect(!service.api.transcript.contains { $0.contains("/api/live/live?") }, "no live asked for yet")
        try service.turnLive(user: "9001234", liveID: "wait-live")
        let status = try await process.exitStatus(within: .seconds(15))
        let lines = try await process.lines.all(within: .seconds(5), "the end of bcstream's stdout")
        #expect(status == 0, "stderr: \(process.stderr)")
        #expect(lines.count == 3 && lines.last?.contains("liveEnded") == true, "stdout: \(lines)")
        #expect(service.api.transcript.contains { $0.hasPrefix("request path=/api/live/live?live_id=wait-live") })
    }

    @Test("an API answer that gives no live: a message saying what to do, and an exit status", arguments: [
        ("status-401", 3, "HTTP 401: the API wants a logged-in browser's cookie"),
        ("status-403", 3, "HTTP 403"),
        ("status-404", 3, "HTTP 404: no such live or user"),
        ("status-429", 3, "HTTP 429: too many requests"),
        ("not-json", 4, "not JSON"),
        ("missing-keys", 4, "lacks broadcast_host"),
        ("huge", 4, "larger than 1048576 bytes"),
        ("ended-live", 2, "has ended"),
        ("private-live", 2, "is private"),
        ("hostile-key", 4, #"the live info answer's bcsvr_key: a key with a line break in it"#),
    ] as [(String, Int32, String)])
    func failingAnswer(liveID: String, status: Int32, message: String) async throws {
        let service = try await LiveServiceStandIn.start()
        defer { service.stop() }
        let run = try await listen(["https://www.mirrativ.com/live/\(liveID)"] + service.apiArguments)
        #expect(run.status == status, "stderr: \(run.stderr)")
        #expect(run.stderr.contains(message), "stderr: \(run.stderr)")
        #expect(run.lines.isEmpty)
        #expect(!run.stderr.unicodeScalars.contains("\u{1B}"), "a raw escape reached the terminal: \(run.stderr)")
        #expect(!service.replay.stderr.contains("subscribed"), "the bcsvr server heard a SUB: \(service.replay.stderr)")
    }

    @Test("a user who is offline, without --wait: exit 2 and the hint")
    func userOffline() async throws {
        let service = try await LiveServiceStandIn.start()
        defer { service.stop() }
        let run = try await listen(["https://www.mirrativ.com/user/9001234"] + service.apiArguments)
        #expect(run.status == 2)
        #expect(run.stderr.contains("user 9001234 is not live now; add --wait"), "stderr: \(run.stderr)")
    }

    @Test("TLS is verified: an API with a certificate of an unknown CA is refused without --ca-file")
    func untrustedAPI() async throws {
        let service = try await LiveServiceStandIn.start()
        defer { service.stop() }
        let run = try await listen(["live-id", "--api-base", "https://127.0.0.1:\(service.apiPort)"])
        #expect(run.status == 5)
        #expect(run.stderr.contains("not trusted") && run.stderr.contains("--ca-file"), "stderr: \(run.stderr)")
        #expect(!service.api.transcript.contains { $0.hasPrefix("request") }, "no request got through")
    }

    @Test("an API that does not answer: a timeout after --api-timeout, exit 5")
    func apiTimeout() async throws {
        let service = try await LiveServiceStandIn.start()
        defer { service.stop() }
        let started = ContinuousClock.now
        let run = try await listen(["slow", "--api-timeout", "1"] + service.apiArguments)
        #expect(ContinuousClock.now - started < .seconds(6))
        #expect(run.status == 5)
        #expect(run.stderr.contains("no complete answer within 1 s"), "stderr: \(run.stderr)")
    }

    @Test("the cookie (--cookie and BCSTREAM_COOKIE) reaches the API and is never printed")
    func cookieSentNotEchoed() async throws {
        let service = try await LiveServiceStandIn.start()
        defer { service.stop() }
        let run = try await listen(["status-401", "--cookie", "other=ARGSECRET"] + service.apiArguments,
                                   environment: ["BCSTREAM_COOKIE": "mr_id=ENVSECRET"])
        #expect(run.status == 3)
        #expect(service.api.transcript.contains {
            $0 == "request path=/api/live/live?live_id=status-401 cookie=other=ARGSECRET; mr_id=ENVSECRET"
        }, "\(service.api.transcript)")
        #expect(!run.stderr.contains("SECRET") && !run.lines.joined().contains("SECRET"), "stderr: \(run.stderr)")
        let refused = try BCStreamProcess.run(["listen", "live-id", "--cookie", "mr_id=BAD\u{1B}SECRET"])
        #expect(refused.status == 64)
        #expect(!refused.stderr.contains("SECRET") && refused.stderr.contains("control character"))
    }

    @Test("wrong combinations are usage errors (64) that say what goes with what", arguments: [
        (["https://www.mirrativ.com/live/abc", "--key", "a:1"], "--key goes with a ws:// or wss:// endpoint"),
        (["https://www.mirrativ.com/live/abc", "--wait"], "--wait and --follow-next need a user page URL"),
        (["https://www.mirrativ.com/user/1", "--follow-next"], "--follow-next goes with --wait"),
        (["wss://online.example.com/", "--key", "a:1", "--backlog"], "--backlog needs a live or user page URL"),
        (["wss://online.example.com/"], "Pass at least one --key"),
        (["https://www.mirrativ.com/about"], "is not a live page"),
        (["abc", "--api-base", "ftp://x"], "--api-base ftp://x is not an http:// or https:// URL"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let run = try BCStreamProcess.run(["listen"] + arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "stderr: \(run.stderr)")
    }
}
