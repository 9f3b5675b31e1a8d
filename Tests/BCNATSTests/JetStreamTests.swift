import BCNATS
import Foundation
import TestSupport
import Testing

/// The binding against a real `nats-server -js` on loopback.
@Suite(.timeLimit(.minutes(1))) struct JetStreamTests {
    static let stream = JetStreamStream(name: "TEST", subjects: ["test.>"], retention: .limits)

    @Test func aStreamIsCreatedOnceAndAPublishWithTheSameMessageIDIsStoredOnce() async throws {
        try await withNATSServer { server in
            let connection = try await NATSConnection.connect(.init(servers: [server.url]))
            #expect(try await connection.ensureStream(Self.stream))
            #expect(try await !connection.ensureStream(Self.stream), "it exists now: left as it is")

            let first = try await connection.publish(Array("one".utf8), to: "test.a", messageID: "frame-1")
            #expect(first.stream == "TEST")
            #expect(first.sequence == 1)
            #expect(!first.duplicate)
            let retry = try await connection.publish(Array("one".utf8), to: "test.a", messageID: "frame-1")
            #expect(retry.duplicate, "a retry with the same Nats-Msg-Id stores nothing")
            #expect(retry.sequence == 1)
            let second = try await connection.publish(Array("two".utf8), to: "test.a", messageID: "frame-2")
            #expect(second.sequence == 2)
            await connection.close()
        }
    }

    @Test func aPublishOutsideEveryStreamFailsWithAClearError() async throws {
        try await withNATSServer { server in
            let connection = try await NATSConnection.connect(.init(servers: [server.url]))
            defer { Task { await connection.close() } }
            let error = await #expect(throws: NATSError.self) {
                try await connection.publish(Array("x".utf8), to: "nowhere.a", timeout: .seconds(1))
            }
            #expect(error?.text.hasPrefix("publishing to nowhere.a: ") == true, "\(String(describing: error))")
        }
    }

    @Test func theConnectionComesBackAfterTheServerRestartsAndTheStreamIsStillThere() async throws {
        try await withNATSServer { server in
            var options = NATSConnectionOptions(servers: [server.url])
            options.reconnectWait = .milliseconds(100)
            let connection = try await NATSConnection.connect(options)
            var events = connection.events.makeAsyncIterator()
            try await connection.ensureStream(Self.stream)
            _ = try await connection.publish(Array("before".utf8), to: "test.a", messageID: "before")

            server.stop()
            #expect(await events.next() == .disconnected)
            #expect(!connection.isConnected)
            try await server.start()
            #expect(await events.next() == .reconnected)
            let after = try await connection.publish(Array("after".utf8), to: "test.a", messageID: "after")
            #expect(after.sequence == 2, "the store kept the first message")
            await connection.close()
            // nats.c says disconnected, then closed, and the stream ends.
            var rest: [NATSConnectionEvent] = []
            while let event = await events.next() { rest.append(event) }
            #expect(rest == [.disconnected, .closed])
        }
    }

    @Test func connectSucceedsBeforeTheServerIsUpAndReportsTheFirstConnection() async throws {
        let server = NATSServer.unstarted()
        defer { server.remove() }
        var options = NATSConnectionOptions(servers: [server.url])
        options.reconnectWait = .milliseconds(100)
        let connection = try await NATSConnection.connect(options)
        #expect(!connection.isConnected)
        try await server.start()
        var events = connection.events.makeAsyncIterator()
        #expect(await events.next() == .connected)
        #expect(try await connection.ensureStream(Self.stream))
        await connection.close()
    }

    @Test func aThreeNodeClusterKeepsAReplicatedStreamWritableWhenANodeDies() async throws {
        let cluster = try await NATSCluster.start()
        defer { cluster.remove() }
        var options = NATSConnectionOptions(servers: cluster.urls)
        options.reconnectWait = .milliseconds(100)
        let connection = try await NATSConnection.connect(options)
        var replicated = Self.stream
        replicated.replicas = 3
        let stream = replicated
        // The cluster's JetStream elects its leader after the nodes are up: creation is retried until it has one.
        _ = try await retryingTransient(within: .seconds(20)) { try await connection.ensureStream(stream) }
        #expect(try await connection.publish(Array("1".utf8), to: "test.a", messageID: "1").sequence == 1)

        cluster.nodes[0].kill()
        let second = try await retryingTransient(within: .seconds(20)) {
            try await connection.publish(Array("2".utf8), to: "test.a", messageID: "2", timeout: .seconds(2))
        }
        #expect(second.sequence == 2)
        await connection.close()
    }
}

/// Runs `body` again while it fails with a transient error (no leader yet, a node going away), up to `timeout`.
func retryingTransient<T: Sendable>(within timeout: Duration,
                                    _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withTimeout(timeout, "a JetStream call to succeed") {
        while true {
            do {
                return try await body()
            } catch let error as NATSError where error.isTransient || error.jetStreamCode != 0 {
                // A cluster without a JetStream leader answers at once; the next try waits for the election.
                try await Task.sleep(for: .milliseconds(200))
            }
        }
    }
}
