import Foundation
import TestSupport
import Testing

/// docs/fleet-stream.md's consumer (`Tests/Peers/stream_consumer.py`, nats-py + jsonschema) against a real worker:
/// every message a live's worker publishes validates against `bcstream types --format json-schema`, on the
/// subject of its kind, with a `Nats-Msg-Id`.
@Suite(.timeLimit(.minutes(2))) struct FleetStreamContractTests {
    @Test func everyPublishedMessageValidatesAgainstThePublishedSchema() async throws {
        let schema = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-schema-\(UUID()).json")
        let printed = try BCStreamProcess.run(["types", "--format", "json-schema"])
        try Data(printed.stdout.utf8).write(to: schema)
        defer { try? FileManager.default.removeItem(at: schema) }
        try await withNATSServer { server in
            let replay = try PeerProcess(executable: BCStreamProcess.executable.path,
                                         arguments: ["replay", "--interval", "0.01", "--keep-open"], name: "bcstream replay")
            defer { replay.stop() }
            let url = try #require(try await replay.lines.next(within: .seconds(10), "the replay's URL"))
            let worker = try PeerProcess(executable: BCStreamProcess.executable.path,
                                         arguments: ["worker", "--nats", server.url], name: "worker")
            defer { worker.stop() }
            _ = try await worker.errorLines.first(within: .seconds(15), "the worker to wait for lives") {
                $0.contains("waiting for lives on bcstream.follow")
            }
            let key = "contract:live1"
            let consumer = try PeerProcess.python(PeerScript(file: "stream_consumer.py"), server.url,
                                                  [schema.path, "--ends", key, "--timeout", "90"])
            defer { consumer.stop() }
            _ = try await consumer.report("ready", within: .seconds(10))
            let follow = try BCStreamProcess.run(["follow", "--nats", server.url, url, "--key", key])
            #expect(follow.status == 0, "\(follow.stderr)")

            let done = try await consumer.reported("done", within: .seconds(90))
            let invalid = consumer.transcript.filter { $0.hasPrefix("invalid ") }
            #expect(invalid.isEmpty, "\(invalid.prefix(5))")
            let counts = done.split(separator: " ")
            #expect(counts.count == 4 && counts[3] == "0", "\(done)")
            let stored = consumer.transcript.filter { $0.first?.isNumber == true }
            try #require(stored.count == Int(counts[1]) && stored.count > 100, "\(done)")
            let ids = stored.map { $0.split(separator: " ").last.map(String.init) ?? "" }
            // A comment's ID is its comment's; every other message's starts with the worker's run.
            let (comments, frames) = (ids.filter { $0.hasPrefix("comment-\(key)-") }, ids.filter { !$0.hasPrefix("comment-") })
            #expect(!comments.isEmpty && comments.count + frames.count == ids.count, "\(ids.prefix(5))")
            #expect(frames.allSatisfy { $0.hasPrefix(String(frames[0].prefix(36))) && $0 != "None" }, "one run's IDs")
            #expect(Set(ids).count == ids.count, "each Nats-Msg-Id once")
        }
    }
}
