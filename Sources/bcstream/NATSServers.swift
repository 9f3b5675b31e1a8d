import ArgumentParser
import BCFleet
import BCMessages
import BCNATS
import Foundation
import Logging

/// The commands' side of NATS: the URLs they take, and the publisher they start, which logs to `logger`.
enum NATSServers {
    /// `nats://host:port`, several separated by commas (the servers of one cluster).
    static func parse(_ text: String) -> [String]? {
        let urls = text.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        guard !urls.isEmpty, urls.allSatisfy({ url in
            guard let parsed = URL(string: url), ["nats", "tls"].contains(parsed.scheme ?? ""),
                  let host = parsed.host, !host.isEmpty else { return false }
            return true
        }) else { return nil }
        return urls
    }

    static func validate(_ text: String?, option: String, buffer: Int? = nil) throws {
        if let text, parse(text) == nil {
            throw ValidationError(TerminalText.escaped(
                "\(option) takes nats://HOST:PORT (several separated by commas), not \(text)."))
        }
        if let buffer { try validate(buffer: buffer) }
    }

    /// `--publish-buffer`: at least one message.
    static func validate(buffer: Int) throws {
        if buffer < 1 { throw ValidationError("--publish-buffer must be at least 1.") }
    }

    /// A connection that fails at once when no server answers (for a one-shot command).
    static func connect(_ text: String) async throws -> NATSConnection {
        var options = NATSConnectionOptions(servers: parse(text) ?? [text])
        options.name = "bcstream follow"
        let connection: NATSConnection
        do {
            connection = try await NATSConnection.connect(options)
        } catch {
            throw CommandFailure("cannot reach NATS at \(text): \(error)")
        }
        return connection
    }

    /// The publisher of `--publish URL`, or nil without it.
    static func startPublisher(_ text: String?, capacity: Int, logger: Logger) async throws -> LivePublisher? {
        guard let text else { return nil }
        return try await publisher(text, capacity: capacity, logger: logger)
    }

    static func publisher(_ text: String, capacity: Int, metrics: FleetMetrics = FleetMetrics(), replicas: Int = 1,
                          logger: Logger) async throws -> LivePublisher {
        try await LivePublisher.start(servers: parse(text) ?? [text], capacity: capacity, metrics: metrics,
                                      stream: FleetSubjects.replicated(FleetSubjects.messages, replicas),
                                      logger: logger)
    }

    /// Publishes what waits (for at most `LivePublisher.drainLimit`) and says what was published; returns how
    /// many were not.
    static func finish(_ publisher: LivePublisher?, logger: Logger) async -> Int {
        guard let publisher else { return 0 }
        let lost = await publisher.finish()
        logger.info("\(publisher.summary)")
        return lost
    }
}
