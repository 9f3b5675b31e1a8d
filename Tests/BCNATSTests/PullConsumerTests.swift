import BCNATS
import Foundation
import TestSupport
import Testing

/// A work queue shared by two holders of one durable pull consumer, against a real `nats-server -js`.
@Suite(.timeLimit(.minutes(1))) struct PullConsumerTests {
    static let queue = JetStreamStream(name: "WORK", subjects: ["work"], retention: .workQueue)

    private func consumer(_ connection: NATSConnection, ackWait: Duration = .seconds(30)) async throws -> PullConsumer {
        var configuration = PullConsumerConfiguration(stream: "WORK", durable: "workers", subject: "work")
        configuration.ackWait = ackWait
        return try await PullConsumer.open(configuration, on: connection)
    }

    private func text(_ message: NATSMessage) -> String { String(decoding: message.data, as: UTF8.self) }

    @Test func eachItemGoesToOneHolderAndAnAckedItemIsGone() async throws {
        try await withNATSServer { server in
            let connection = try await NATSConnection.connect(.init(servers: [server.url]))
            try await connection.ensureStream(Self.queue)
            for item in ["a", "b", "c"] { _ = try await connection.publish(Array(item.utf8), to: "work") }
            let one = try await consumer(connection)
            let two = try await consumer(connection)
            let first = try await one.fetch(batch: 2, timeout: .seconds(2))
            #expect(first.map(text) == ["a", "b"])
            #expect(first.allSatisfy { $0.deliveries == 1 && $0.subject == "work" })
            let second = try await two.fetch(batch: 5, timeout: .seconds(2))
            #expect(second.map(text) == ["c"], "a and b are claimed by the other holder")
            for message in first + second { try message.ack() }
            #expect(try await two.fetch(batch: 5, timeout: .milliseconds(300)).isEmpty)
            await connection.close()
        }
    }

    @Test func aNakHandsTheItemBackAtOnce() async throws {
        try await withNATSServer { server in
            let connection = try await NATSConnection.connect(.init(servers: [server.url]))
            try await connection.ensureStream(Self.queue)
            _ = try await connection.publish(Array("a".utf8), to: "work")
            let one = try await consumer(connection)
            let two = try await consumer(connection)
            let claimed = try #require(try await one.fetch(batch: 1, timeout: .seconds(2)).first)
            try claimed.nak()
            let again = try #require(try await two.fetch(batch: 1, timeout: .seconds(2)).first)
            #expect(text(again) == "a")
            #expect(again.deliveries == 2)
            try again.ack()
            await connection.close()
        }
    }

    @Test func aClaimKeptInProgressOutlivesTheAckWaitAndALostOneIsRedeliveredAfterIt() async throws {
        try await withNATSServer { server in
            let connection = try await NATSConnection.connect(.init(servers: [server.url]))
            try await connection.ensureStream(Self.queue)
            _ = try await connection.publish(Array("a".utf8), to: "work")
            let holder = try await consumer(connection, ackWait: .seconds(1))
            let other = try await consumer(connection, ackWait: .seconds(1))
            let claimed = try #require(try await holder.fetch(batch: 1, timeout: .seconds(2)).first)
            // Three ack waits long, with an in-progress every 300 ms: the other holder gets nothing meanwhile
            // (each empty fetch is the 300 ms wait).
            for _ in 0..<10 {
                try claimed.inProgress()
                #expect(try await other.fetch(batch: 1, timeout: .milliseconds(300)).isEmpty)
            }
            // The holder goes silent (as a killed worker would): after the ack wait the item comes back.
            let started = ContinuousClock.now
            let redelivered = try #require(try await other.fetch(batch: 1, timeout: .seconds(5)).first)
            #expect(ContinuousClock.now - started < .seconds(3))
            #expect(text(redelivered) == "a")
            #expect(redelivered.deliveries == 2)
            try redelivered.ack()
            await connection.close()
        }
    }
}
