import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import Testing

/// `bcstream worker` and `bcstream follow` against a real `nats-server -js`, lives from `bcstream replay`, read by
/// the independent nats-py consumer (`Tests/Peers/nats_consumer.py`).
@Suite(.timeLimit(.minutes(3))) struct FleetWorkerTests {
    static let consumer = PeerScript(file: "nats_consumer.py")

    private func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }

    /// A stored message as text that can be compared: its data without `receivedAt`, keys sorted.
    private func content(_ message: [String: Any]) throws -> String {
        var data = try #require(message["data"] as? [String: Any])
        data["receivedAt"] = nil
        return String(decoding: try JSONSerialization.data(withJSONObject: data, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The run (worker process) that published a message: its Nats-Msg-Id is `<run uuid>-<follow>-<frame>`.
    private func run(_ message: [String: Any]) -> String {
        String((message["id"] as? String ?? "").prefix(36))
    }

    /// The run of each of a live's messages, in order. A comment's Nats-Msg-Id is its comment's
    /// (`comment-<key>-<lci>`), not its run's: it is given the run of the message before it (the first ones, that
    /// of the first message that has one). The replay plays comments first, long before a worker is killed.
    private func runsOf(_ messages: [[String: Any]]) -> [String] {
        let own = messages.map { ($0["id"] as? String ?? "").hasPrefix("comment-") ? nil : run($0) }
        var last = own.compactMap { $0 }.first ?? ""
        return own.map { run in
            if let run { last = run }
            return last
        }
    }

    /// The nats-py reader of stream BCSTREAM, writing its lines to a file (`lines(of:)`) and saying `read N` every
    /// 50 messages: a pipe of hundreds of long lines was seen to stall a reader now and then.
    static func reader(_ servers: String, ends keys: [String]) throws -> (PeerProcess, String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bcstream-read-\(UUID()).ndjson").path
        let reader = try PeerProcess.python(consumer, "read", [servers, "--ends", keys.joined(separator: ","),
                                                               "--timeout", "120", "--output", output])
        return (reader, output)
    }

    /// The stored messages the reader wrote, parsed.
    static func stored(_ output: String) throws -> [[String: Any]] {
        try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    private func replay(interval: String) async throws -> (PeerProcess, String) {
        let replay = try PeerProcess(executable: BCStreamProcess.executable.path,
                                     arguments: ["replay", "--interval", interval, "--keep-open"],
                                     name: "bcstream replay")
        let url = try #require(try await replay.lines.next(within: .seconds(10), "the replay's URL"))
        return (replay, url)
    }

    private func worker(_ name: String, _ server: NATSServer, _ extra: [String]) async throws -> PeerProcess {
        let worker = try PeerProcess(executable: BCStreamProcess.executable.path,
                                     arguments: ["worker", "--nats", server.url] + extra, name: "worker \(name)")
        _ = try await worker.errorLines.first(within: .seconds(15), "worker \(name) to wait for lives") {
            $0.contains("waiting for lives on bcstream.follow")
        }
        return worker
    }

    private func follow(_ server: NATSServer, _ url: String, _ keys: [String]) throws {
        let result = try BCStreamProcess.run(["follow", "--nats", server.url, url] + keys.flatMap { ["--key", $0] })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.count == keys.count, "\(result.stdout)")
    }

    /// What `worker`'s stderr said so far, waited for line by line.
    private func waitForStderr(_ process: PeerProcess, _ prefix: String, times: Int, within timeout: Duration) async throws {
        var seen = 0
        while seen < times {
            _ = try await process.errorLines.first(within: timeout, "\(process.name): \(prefix) ×\(times)") {
                $0.hasPrefix(prefix)
            }
            seen += 1
        }
    }

    @Test func twoWorkersShareSixLivesAndTheSurvivorFollowsAKilledWorkersLivesToTheirEnd() async throws {
        try await withNATSServer { server in
            let (replay, url) = try await replay(interval: "0.05")
            defer { replay.stop() }
            let keys = (1...6).map { "live\($0):key\($0)" }
            let settings = ["--max-lives", "3", "--claim-timeout", "3"]
            let a = try await worker("A", server, settings)
            defer { a.stop() }
            let b = try await worker("B", server, settings)
            defer { b.stop() }
            let (reader, output) = try Self.reader(server.url, ends: keys)
            defer {
                reader.stop()
                try? FileManager.default.removeItem(atPath: output)
            }
            _ = try await reader.report("ready", within: .seconds(10))
            try follow(server, url, keys)

            // Each takes three (its --max-lives); a third of the way in, A dies without a word.
            try await waitForStderr(a, "nats: following ", times: 3, within: .seconds(10))
            try await waitForStderr(b, "nats: following ", times: 3, within: .seconds(10))
            _ = try await reader.reported("read 300", within: .seconds(30))
            a.send(signal: SIGKILL)
            _ = try await a.exitStatus(within: .seconds(5))

            // B ends its own lives, then takes A's after the claim timeout and follows them to their end.
            _ = try await reader.reported("done", within: .seconds(90))
            try await waitForStderr(b, "nats: following ", times: 3, within: .seconds(5))
            let stored = try Self.stored(output)
            let byKey = Dictionary(grouping: stored) { ($0["data"] as? [String: Any])?["key"] as? String ?? "" }
            #expect(Set(byKey.keys) == Set(keys))
            // A live followed by one worker from start to end is the reference every other live is held to.
            let whole = try #require(keys.first { key in Set(runsOf(byKey[key, default: []])).count == 1 })
            let reference = try byKey[whole, default: []].map(content)
            #expect(reference.count > 100)
            var takenOver = 0
            for key in keys {
                let messages = byKey[key, default: []]
                let runs = runsOf(messages)
                let contents = try messages.map(content)
                #expect(messages.last.flatMap { ($0["data"] as? [String: Any])?["t"] as? Int } == 8, "\(key) ended")
                guard Set(runs).count == 2 else {
                    #expect(contents == reference.map { $0.replacingOccurrences(of: whole, with: key) }, "\(key)")
                    continue
                }
                takenOver += 1
                // A's part is the start of the live, B's a contiguous rest to the end: frames the replay sent to
                // the killed worker in its last instant are the only gap, and nothing is stored twice.
                let split = try #require(runs.firstIndex { $0 != runs[0] })
                #expect(runs[split...].allSatisfy { $0 == runs[split] }, "\(key): one hand-over")
                let expected = reference.map { $0.replacingOccurrences(of: whole, with: key) }
                #expect(Array(contents[..<split]) == Array(expected.prefix(split)), "\(key): A's part")
                let rest = Array(contents[split...])
                #expect(Array(expected.suffix(rest.count)) == rest, "\(key): B's part runs to the end")
                #expect(split + rest.count <= expected.count, "\(key): nothing twice")
            }
            #expect(takenOver == 3, "A's three lives were taken over")
            #expect(b.stderr.contains("taken over: delivery 2"))
        }
    }

    /// Anyone who can publish on the follow subject can queue a request: its key would go into `SUB\t<key>`, so
    /// `w1\nSUB\tvictim2` would subscribe the worker to `victim2` as well.
    @Test func aFollowRequestWithAHostileKeyIsTerminatedCountedAndLoggedOnceEscaped() async throws {
        try await withNATSServer { server in
            let (replay, url) = try await replay(interval: "0.02")
            defer { replay.stop() }
            // A short claim timeout: a request nak'd or left unacked would come back within the test.
            let worker = try await worker("H", server, ["--claim-timeout", "1", "--metrics-port", "0"])
            defer { worker.stop() }
            let hostile = #"{"url":"\#(url)","key":"w1\nSUB\tvictim2\u001b[2J"}"#
            let publisher = try PeerProcess.python(Self.consumer, "publish",
                                                   [server.url, "--subject", "bcstream.follow", "--data", hostile])
            defer { publisher.stop() }
            _ = try await publisher.report("published", within: .seconds(10))
            let dropped = try await worker.errorLines.first(within: .seconds(10), "the request dropped") {
                $0.contains("dropped a request")
            }
            #expect(dropped.contains(#"follow request on bcstream.follow: a key with a line break in it"#), "\(dropped)")
            #expect(dropped.contains(#"w1\u{A}SUB\tvictim2\u{1B}[2J"#), "\(dropped)")
            // A good live queued after it is followed to its end; by then a redelivery would have come.
            try follow(server, url, ["good:1"])
            try await waitForStderr(worker, "nats: good:1: the live ended; acked", times: 1, within: .seconds(30))
            #expect(worker.stderr.components(separatedBy: "dropped a request").count == 2, "\(worker.stderr)")
            #expect(!worker.stderr.contains("victim2\u{1B}") && !worker.stderr.contains("following w1"))
            #expect(!worker.stderr.unicodeScalars.contains("\u{1B}"), "a raw escape reached the log")

            let port = try #require(worker.stderr.split(separator: "\n").lazy.compactMap { line -> Int? in
                guard let range = line.range(of: "metrics on http://127.0.0.1:") else { return nil }
                return Int(line[range.upperBound...].prefix { $0.isNumber })
            }.first)
            let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/metrics")!)
            let metrics = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(metrics.contains("bcstream_follow_requests_rejected_total 1"), "\(metrics)")
            #expect(metrics.contains("bcstream_lives_followed_total 1"), "\(metrics)")
        }
    }

    /// The worker takes the TLS options every connecting command takes: a live on wss:// with a certificate from a
    /// private CA is followed with `--ca-file` or `--insecure`, and fails for good (untrusted) without either.
    @Test("a worker trusts a private CA's wss:// live only when told to", arguments: [
        (["--ca-file"], "nats: tls:1: the live ended; acked"),
        (["--insecure"], "nats: tls:1: the live ended; acked"),
        ([], "nats: tls:1: failed: "),
    ])
    func aWorkerFollowsAWSSLiveWithTheTLSOptions(options: [String], outcome: String) async throws {
        try await withNATSServer { server in
            let live = try await LiveServiceStandIn.start()
            defer { live.stop() }
            let tls = options.flatMap { $0 == "--ca-file" ? [$0, live.ca.certificate] : [$0] }
            let worker = try await worker("T", server, ["--max-attempts", "1"] + tls)
            defer { worker.stop() }
            try follow(server, "wss://127.0.0.1:\(live.replayPort)/", ["tls:1"])
            try await waitForStderr(worker, outcome, times: 1, within: .seconds(30))
        }
    }

    @Test func sigtermHandsTheClaimsBackAtOnceAndAnotherWorkerTakesThemWithMetrics() async throws {
        try await withNATSServer { server in
            let (replay, url) = try await replay(interval: "0.02")
            defer { replay.stop() }
            let keys = ["term1:a", "term2:b"]
            // A claim timeout far longer than the test: a take-over can only come from the nak.
            let a = try await worker("A", server, ["--claim-timeout", "60"])
            defer { a.stop() }
            try follow(server, url, keys)
            try await waitForStderr(a, "nats: following ", times: 2, within: .seconds(10))
            a.send(signal: SIGTERM)
            #expect(try await a.exitStatus(within: .seconds(5)) == 0, "\(a.stderr)")
            #expect(a.stderr.components(separatedBy: "nats: handed back ").count == 3, "\(a.stderr)")

            let b = try await worker("B", server, ["--claim-timeout", "60", "--metrics-port", "0"])
            defer { b.stop() }
            try await waitForStderr(b, "nats: following ", times: 2, within: .seconds(10))
            try await waitForStderr(b, "nats: term", times: 2, within: .seconds(30))
            #expect(b.stderr.contains("the live ended; acked"))

            let port = try #require(b.stderr.split(separator: "\n").lazy.compactMap { line -> Int? in
                guard let range = line.range(of: "metrics on http://127.0.0.1:") else { return nil }
                return Int(line[range.upperBound...].prefix { $0.isNumber })
            }.first)
            let (data, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/metrics")!)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            let metrics = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(metrics.contains("bcstream_lives_followed_total 2"), "\(metrics)")
            #expect(metrics.contains("bcstream_lives_active 0.0"), "\(metrics)")
            #expect(metrics.contains("bcstream_messages_total{kind=\"liveEnded\"} 2"), "\(metrics)")
            #expect(metrics.contains("bcstream_decode_errors_total 0"), "\(metrics)")
            #expect(metrics.contains { $0.hasPrefix("bcstream_publish_latency_seconds_count ") }, "\(metrics)")
            #expect(metrics.contains { $0.hasPrefix("bcstream_publish_buffer_depth ") }, "\(metrics)")
            #expect(metrics.contains("bcstream_nats_reconnects_total 0"), "\(metrics)")

            // The stored statuses say B took both lives over, then that both ended. (A claim A fetched while
            // stopping is handed back too: a delivery may be the third.)
            let statuses = try PeerProcess.python(Self.consumer, "status", [server.url, "--count", "4", "--timeout", "20"])
            defer { statuses.stop() }
            _ = try await statuses.report("done", within: .seconds(20))
            let stored = try statuses.transcript.filter { $0.hasPrefix("{") }.map(object)
            let stati = stored.compactMap { $0["data"] as? [String: Any] }
            for status in ["resumed", "ended"] {
                let these = stati.filter { $0["status"] as? String == status }
                #expect(Set(these.compactMap { $0["key"] as? String }) == Set(keys), "\(status): \(stati)")
                #expect(these.count == 2, "\(status): \(stati)")
            }
            #expect(stati.filter { $0["status"] as? String == "resumed" }.allSatisfy {
                ($0["reason"] as? String)?.hasPrefix("taken over (delivery ") == true
            }, "\(stati)")
        }
    }
}

/// The fleet on a three-node NATS cluster on loopback: streams with three replicas keep every message of a live
/// while the node the worker talks to dies mid-stream (the worker is given that node only, and fails over to the
/// nodes the cluster announced).
@Suite(.timeLimit(.minutes(3))) struct FleetClusterTests {
    @Test func aWorkerOnAThreeNodeClusterLosesNothingWhenANodeDies() async throws {
        let cluster = try await NATSCluster.start()
        defer { cluster.remove() }
        let servers = cluster.urls.joined(separator: ",")
        let replay = try PeerProcess(executable: BCStreamProcess.executable.path,
                                     arguments: ["replay", "--interval", "0.03", "--keep-open"], name: "bcstream replay")
        defer { replay.stop() }
        let url = try #require(try await replay.lines.next(within: .seconds(10), "the replay's URL"))
        // The reference: the same live as `listen` prints it, without NATS.
        let reference = try PeerProcess(executable: BCStreamProcess.executable.path,
                                        arguments: ["listen", url, "--key", "reference:key", "--format", "ndjson"],
                                        name: "bcstream listen (reference)")
        defer { reference.stop() }

        let worker = try PeerProcess(executable: BCStreamProcess.executable.path,
                                     arguments: ["worker", "--nats", cluster.nodes[0].url, "--replicas", "3",
                                                 "--claim-timeout", "5"],
                                     name: "worker")
        defer { worker.stop() }
        // The cluster elects its JetStream leader after the nodes are up: the worker retries until it can.
        _ = try await worker.errorLines.first(within: .seconds(30), "the worker to wait for lives") {
            $0.contains("waiting for lives on bcstream.follow")
        }
        let keys = ["c1:one", "c2:two"]
        let queued = try BCStreamProcess.run(["follow", "--nats", servers, "--replicas", "3", url]
                                             + keys.flatMap { ["--key", $0] })
        #expect(queued.status == 0, "\(queued.stderr)")

        // Some messages in, a node dies.
        let (watcher, watched) = try FleetWorkerTests.reader(servers, ends: keys)
        _ = try await watcher.reported("read 50", within: .seconds(30))
        watcher.stop()
        try? FileManager.default.removeItem(atPath: watched)
        cluster.nodes[0].kill()

        _ = try await worker.errorLines.first(within: .seconds(30), "the worker to fail over") {
            $0 == "nats: reconnected to NATS"
        }
        for _ in keys {
            _ = try await worker.errorLines.first(within: .seconds(60), "the worker to finish a live") {
                $0.hasSuffix("the live ended; acked")
            }
        }
        let (reader, output) = try FleetWorkerTests.reader(servers, ends: keys)
        defer {
            reader.stop()
            try? FileManager.default.removeItem(atPath: output)
        }
        _ = try await reader.reported("done", within: .seconds(60))
        let stored = try FleetWorkerTests.stored(output)
        #expect(Set(stored.compactMap { $0["id"] as? String }).count == stored.count, "nothing twice")
        #expect(try await reference.exitStatus(within: .seconds(30)) == 0)
        let expected = try await reference.lines.all(within: .seconds(5)).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["t"] as? Int
        }
        #expect(expected.count > 100)
        for key in keys {
            let messages = stored.compactMap { $0["data"] as? [String: Any] }.filter { $0["key"] as? String == key }
            #expect(messages.map { $0["t"] as? Int } == expected, "\(key): every message the replay sent, in order")
        }
    }
}
