import BCMessages
import Foundation
import TestSupport
import Testing

/// `bcstream listen`, the built binary, against the scripted bcsvr peer (`Tests/Peers/bcsvr_peer.py`).
@Suite(.timeLimit(.minutes(1))) struct ListenCommandTests {
    static let key = "118f91f:UdoBre1M"

    private func object(_ line: String) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(value as? [String: Any], "not a JSON object: \(line)")
    }

    /// What the peer reported sending, by channel: its `sub n=N key=K` lines say which connection is which key.
    private func sentFrames(by peer: PeerProcess) -> [String: [String]] {
        var keys: [Int: String] = [:]
        var frames: [String: [String]] = [:]
        for line in peer.transcript {
            let words = line.split(separator: " ", maxSplits: 2)
            guard words.count >= 2, words[1].hasPrefix("n="), let n = Int(words[1].dropFirst(2)) else { continue }
            if words[0] == "sub", words.count == 3, words[2].hasPrefix("key=") {
                keys[n] = String(words[2].dropFirst(4))
            } else if words[0] == "sent", let key = keys[n], let start = line.range(of: " text="),
                      let text = try? JSONDecoder().decode(String.self, from: Data(line[start.upperBound...].utf8)) {
                frames[key, default: []].append(text)
            }
        }
        return frames
    }

    @Test func twoChannelsAsNDJSONWithARecordingUntilBothLivesEnd() async throws {
        let record = FileManager.default.temporaryDirectory.appendingPathComponent("bcstream-\(UUID()).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: record) }
        let keys = [Self.key, "2b7c0de:Xy12Ab34"]
        try await withPeer("normal", script: .bcsvr) { peer, port in
            let listen = try PeerProcess(
                executable: BCStreamProcess.executable.path,
                arguments: ["listen", "ws://127.0.0.1:\(port)/", "--key", keys[0], "--key", keys[1],
                            "--format", "ndjson", "--record", record, "--ping-interval", "1", "--duration", "30"],
                name: "bcstream listen")
            defer { listen.stop() }
            let started = ContinuousClock.now
            let status = try await listen.exitStatus(within: .seconds(10))
            #expect(ContinuousClock.now - started < .seconds(5), "it stopped at t=8, not at --duration")
            let lines = try await listen.lines.all(within: .seconds(5), "the end of bcstream's stdout")
            #expect(status == 0, "stderr: \(listen.stderr)")

            // The peer saw both sessions end politely, and reported what it sent.
            _ = try await peer.reported("closed n=1 code=1000", within: .seconds(2))
            _ = try await peer.reported("closed n=2 code=1000", within: .seconds(2))
            let sent = sentFrames(by: peer)

            let objects = try lines.map(object)
            #expect(objects.count == 10, "stdout: \(lines)")
            let decoder = BCMessageDecoder()
            for key in keys {
                let printed = objects.filter { $0["key"] as? String == key }
                #expect(printed.compactMap { $0["t"] as? Int } == [23, 1, 35, 3, 8], "\(key): \(lines)")
                #expect(printed.map { $0["kind"] as? String }
                    == ["viewerCountChanged", "comment", "gift", "join", "liveEnded"])
                // Each printed message is the one sent on its channel, decoded.
                let bodies = (sent[key] ?? []).filter { $0.hasPrefix("MSG\t") }.map {
                    String($0.split(separator: "\t", maxSplits: 2)[2])
                }
                #expect(bodies.count == printed.count)
                for (object, body) in zip(printed, bodies) {
                    let message = try JSONSerialization.data(withJSONObject: try #require(object["message"]))
                    #expect(try decoder.decode(message) == decoder.decode(body))
                }
            }

            // The recording holds every frame as received, before decoding, under its channel's key.
            let recorded = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
                .map { try object(String($0)) }
            #expect(recorded.count == sent.values.map(\.count).reduce(0, +))
            for key in keys {
                #expect(recorded.filter { $0["key"] as? String == key }.compactMap { $0["text"] as? String }
                    == sent[key], "\(key)")
            }
            #expect(recorded.allSatisfy { $0["time"] is String })
        }
    }

    @Test func countStopsAfterThatManyMessagesAndClosesTheConnectionPolitely() async throws {
        try await withPeer("idle", script: .bcsvr) { peer, port in
            let listen = try PeerProcess(
                executable: BCStreamProcess.executable.path,
                arguments: ["listen", "ws://127.0.0.1:\(port)/", "--key", Self.key, "--format", "ndjson",
                            "--count", "1"],
                name: "bcstream listen --count 1")
            defer { listen.stop() }
            let status = try await listen.exitStatus(within: .seconds(10))
            let lines = try await listen.lines.all(within: .seconds(5), "the end of bcstream's stdout")
            #expect(status == 0, "stderr: \(listen.stderr)")
            #expect(try lines.map { try object($0)["t"] as? Int } == [23])
            // A close frame, not a dropped socket: the process waits for its connections to close before exiting.
            let closed = try await peer.reported("closed n=1 ", within: .seconds(2))
            #expect(closed.hasPrefix("closed n=1 code=1000") || closed.hasPrefix("closed n=1 code=1001"), "\(closed)")
        }
    }

    @Test func forbiddenStopsAtOnceWithAMessageAndExitStatus1() async throws {
        try await withPeer("status", ["403"], script: .bcsvr) { peer, port in
            let listen = try PeerProcess(
                executable: BCStreamProcess.executable.path,
                arguments: ["listen", "ws://127.0.0.1:\(port)/", "--key", Self.key],
                name: "bcstream listen (403)")
            defer { listen.stop() }
            let started = ContinuousClock.now
            let status = try await listen.exitStatus(within: .seconds(10))
            #expect(ContinuousClock.now - started < .seconds(3), "no retry, no back-off")
            let errors = try await listen.errorLines.all(within: .seconds(5), "the end of bcstream's stderr")
            #expect(status == 1)
            #expect(try await listen.lines.all(within: .seconds(5)).isEmpty)
            #expect(errors.contains { $0.hasPrefix("127.0.0.1:") && $0.hasSuffix("""
                 rejected the connection: HTTP 403 Forbidden instead of a WebSocket; not retrying, as it \
                would be rejected again (the server does not let this client in)
                """) }, "stderr, naming host and port: \(errors)")
            _ = try await peer.reported("rejected n=1 status=403")
            #expect(peer.transcript.filter { $0.hasPrefix("request ") }.count == 1, "one attempt only")
        }
    }
}
