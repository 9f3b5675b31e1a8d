import Foundation
import TestSupport
import Testing

/// `bcstream listen --publish`: a replayed live published to a real `nats-server -js`, read back by an independent
/// nats-py consumer (`Tests/Peers/nats_consumer.py`).
@Suite(.timeLimit(.minutes(2))) struct ListenPublishTests {
    static let consumer = PeerScript(file: "nats_consumer.py")
    static let keys = ["118f91f:UdoBre1M", "2b7c0de:Xy12Ab34"]

    private func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }

    /// A `bcstream replay` of every fixture, `interval` apart, serving any key until stopped.
    private func replay(interval: String) async throws -> (PeerProcess, String) {
        let replay = try PeerProcess(executable: BCStreamProcess.executable.path,
                                     arguments: ["replay", "--interval", interval, "--keep-open"],
                                     name: "bcstream replay")
        let url = try #require(try await replay.lines.next(within: .seconds(10), "the replay's URL"))
        return (replay, url)
    }

    /// Reads the stream with nats-py until both lives ended; returns its lines (one per stored message).
    private func consumed(from server: NATSServer) async throws -> [[String: Any]] {
        // The lines go to a file: a pipe of a few hundred long lines was seen to stall the reader now and then.
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bcstream-read-\(UUID()).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let reader = try PeerProcess.python(Self.consumer, "read", [server.url, "--ends", Self.keys.joined(separator: ","),
                                                                    "--timeout", "30", "--output", output])
        defer { reader.stop() }
        _ = try await reader.report("ready", within: .seconds(10))
        do {
            _ = try await reader.report("done", within: .seconds(35))
        } catch {
            let lines = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n")
            let log = String(server.log.suffix(2000))
            Issue.record("\(error): the reader wrote \(lines.count) lines; stdout: \(reader.transcript); stderr: \(reader.stderr); nats-server: \(log)")
            throw error
        }
        return try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map { try object(String($0)) }
    }

    /// Every stdout line of `listen --format ndjson` is stored once, in order, as that line plus `receivedAt`, on
    /// `bcstream.msg.<channel>.<kind>`, with a Nats-Msg-Id of its own.
    private func expectPublished(_ stdout: [String], _ stored: [[String: Any]]) throws {
        #expect(stored.count == stdout.count, "stdout has \(stdout.count) lines, the stream \(stored.count)")
        #expect(Set(stored.compactMap { $0["id"] as? String }).count == stored.count, "one Nats-Msg-Id each")
        #expect(stored.compactMap { $0["seq"] as? Int } == Array(1...max(1, stored.count)).prefix(stored.count).map { $0 })
        for key in Self.keys {
            let printed = try stdout.map(object).filter { $0["key"] as? String == key }
            let published = stored.filter { ($0["data"] as? [String: Any])?["key"] as? String == key }
            #expect(printed.count == published.count, "\(key)")
            for (line, message) in zip(printed, published) {
                var data = try #require(message["data"] as? [String: Any])
                let receivedAt = try #require(data.removeValue(forKey: "receivedAt") as? String)
                #expect(receivedAt.hasSuffix("Z") && receivedAt.contains("T"), "\(receivedAt)")
                #expect(NSDictionary(dictionary: data).isEqual(to: line), "\(data) is not \(line)")
                let channel = key.replacingOccurrences(of: ":", with: "_")
                let kind = line["error"] != nil ? "error" : try #require(line["kind"] as? String)
                #expect(message["subject"] as? String == "bcstream.msg.\(channel).\(kind)")
            }
        }
    }

    @Test func aReplayedLiveIsPublishedOnceAndInOrderAsItsNDJSONLines() async throws {
        try await withNATSServer { server in
            let (replay, url) = try await replay(interval: "0.01")
            defer { replay.stop() }
            let listen = try PeerProcess(
                executable: BCStreamProcess.executable.path,
                arguments: ["listen", url, "--key", Self.keys[0], "--key", Self.keys[1], "--format", "ndjson",
                            "--publish", server.url, "--duration", "60"],
                name: "bcstream listen --publish")
            defer { listen.stop() }
            let status = try await listen.exitStatus(within: .seconds(60))
            let stdout = try await listen.lines.all(within: .seconds(5), "the end of listen's stdout")
            #expect(status == 0, "stderr: \(listen.stderr)")
            #expect(stdout.count > 100)
            #expect(listen.stderr.contains("nats: published \(stdout.count) messages to JetStream"), "\(listen.stderr)")
            try expectPublished(stdout, try await consumed(from: server))
        }
    }

    @Test func natsRestartedMidStreamLosesNothingAndAFullBufferPausesReading() async throws {
        try await withNATSServer { server in
            // Paced so that the live outlasts the restart by seconds: at 0.02 s a message it was over in about
            // 3 s, and on a loaded machine it once ended before the loss was noticed and the buffer could fill.
            let (replay, url) = try await replay(interval: "0.05")
            defer { replay.stop() }
            let listen = try PeerProcess(
                executable: BCStreamProcess.executable.path,
                arguments: ["listen", url, "--key", Self.keys[0], "--key", Self.keys[1], "--format", "ndjson",
                            "--publish", server.url, "--publish-buffer", "8", "--duration", "90"],
                name: "bcstream listen --publish (restart)")
            defer { listen.stop() }
            // A few messages in, NATS goes away; the listener says so, its buffer fills and reading pauses.
            for _ in 0..<20 { _ = try await listen.lines.next(within: .seconds(10), "listen's messages") }
            server.stop()
            _ = try await listen.errorLines.first(within: .seconds(10), "listen to notice") {
                $0.hasPrefix("nats: lost the connection to NATS")
            }
            _ = try await listen.errorLines.first(within: .seconds(10), "the buffer to fill") {
                $0.hasPrefix("nats: the publish buffer is full (8 messages)")
            }
            try await server.start()
            _ = try await listen.errorLines.first(within: .seconds(10), "listen to reconnect") {
                $0.hasPrefix("nats: reconnected to NATS")
            }
            let status = try await listen.exitStatus(within: .seconds(60))
            #expect(status == 0, "stderr: \(listen.stderr)")
            // Read to its end first: the process can exit before its last lines are read from the pipe.
            _ = try await listen.lines.all(within: .seconds(5), "the end of listen's stdout")
            let stdout = listen.transcript
            try expectPublished(stdout, try await consumed(from: server))
        }
    }

    @Test func listenStartsBeforeNATSAndPublishesEverythingOnceItIsUp() async throws {
        let server = NATSServer.unstarted()
        defer { server.remove() }
        let (replay, url) = try await replay(interval: "0.01")
        defer { replay.stop() }
        let listen = try PeerProcess(
            executable: BCStreamProcess.executable.path,
            arguments: ["listen", url, "--key", Self.keys[0], "--key", Self.keys[1], "--format", "ndjson",
                        "--publish", server.url, "--duration", "60"],
            name: "bcstream listen --publish (NATS later)")
        defer { listen.stop() }
        _ = try await listen.errorLines.first(within: .seconds(10), "listen to say NATS is not there") {
            $0.hasPrefix("nats: NATS at \(server.url) does not answer yet; messages wait")
        }
        _ = try await listen.lines.next(within: .seconds(10), "a first message on stdout")
        try await server.start()
        let status = try await listen.exitStatus(within: .seconds(60))
        #expect(status == 0, "stderr: \(listen.stderr)")
        let stdout = try await listen.lines.all(within: .seconds(5), "the end of listen's stdout")
        try expectPublished(listen.transcript, try await consumed(from: server))
        #expect(stdout.count + 1 == listen.transcript.count)
    }

    @Test func stoppingWhileNATSIsAwaySaysHowManyMessagesWereNotPublishedAndFails() async throws {
        let server = NATSServer.unstarted()  // never started
        defer { server.remove() }
        let (replay, url) = try await replay(interval: "0.01")
        defer { replay.stop() }
        let listen = try PeerProcess(
            executable: BCStreamProcess.executable.path,
            arguments: ["listen", url, "--key", Self.keys[0], "--format", "ndjson", "--publish", server.url,
                        "--publish-buffer", "5"],
            name: "bcstream listen --publish (NATS never)")
        defer { listen.stop() }
        _ = try await listen.errorLines.first(within: .seconds(20), "the buffer to fill") {
            $0.hasPrefix("nats: the publish buffer is full (5 messages)")
        }
        listen.send(signal: SIGINT)
        _ = try await listen.errorLines.first(within: .seconds(10), "listen to wait for NATS") {
            $0.hasPrefix("nats: waiting up to 10 s for NATS to publish the last ")
        }
        // The drain is bounded by a clock, not by a second Ctrl-C.
        #expect(try await listen.exitStatus(within: .seconds(20)) == 1)
        let errors = try await listen.errorLines.all(within: .seconds(5))
        #expect(errors.contains { $0.hasPrefix("nats: ") && $0.contains("were not published to NATS (it stayed unreachable") },
                "\(errors)")
    }
}
