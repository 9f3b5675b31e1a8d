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

    @Test func ndjsonWithARecordingUntilTheLiveEnds() async throws {
        let record = FileManager.default.temporaryDirectory.appendingPathComponent("bcstream-\(UUID()).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: record) }
        try await withPeer("normal", script: .bcsvr) { peer, port in
            let listen = try PeerProcess(
                executable: BCStreamProcess.executable.path,
                arguments: ["listen", "ws://127.0.0.1:\(port)/", "--key", Self.key, "--format", "ndjson",
                            "--record", record, "--ping-interval", "1", "--duration", "30"],
                name: "bcstream listen")
            defer { listen.stop() }
            let started = ContinuousClock.now
            let status = try await listen.exitStatus(within: .seconds(10))
            #expect(ContinuousClock.now - started < .seconds(5), "it stopped at t=8, not at --duration")
            let lines = try await listen.lines.all(within: .seconds(5), "the end of bcstream's stdout")
            #expect(status == 0, "stderr: \(listen.stderr)")

            // The peer saw the session end politely, and reported what it sent.
            _ = try await peer.reported("closed n=1 code=1000", within: .seconds(2))
            let sent = peer.transcript.compactMap { line -> String? in
                guard line.hasPrefix("sent "), let start = line.range(of: " text=") else { return nil }
                return try? JSONDecoder().decode(String.self, from: Data(line[start.upperBound...].utf8))
            }

            let objects = try lines.map(object)
            #expect(objects.compactMap { $0["t"] as? Int } == [23, 1, 35, 3, 8], "stdout: \(lines)")
            #expect(objects.allSatisfy { $0["key"] as? String == Self.key })
            #expect(objects.map { $0["kind"] as? String }
                == ["viewerCountChanged", "comment", "gift", "join", "liveEnded"])
            // Each printed message is the sent one, decoded.
            let decoder = BCMessageDecoder()
            for (object, frame) in zip(objects, sent) {
                let body = String(frame.split(separator: "\t", maxSplits: 2)[2])
                let printed = try JSONSerialization.data(withJSONObject: try #require(object["message"]))
                #expect(try decoder.decode(printed) == decoder.decode(body))
            }

            // The recording holds every frame as received, before decoding.
            let recorded = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
                .map { try object(String($0)) }
            #expect(recorded.compactMap { $0["text"] as? String } == sent)
            #expect(recorded.allSatisfy { $0["key"] as? String == Self.key && $0["time"] is String })
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
}
