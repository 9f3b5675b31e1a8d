import BCFleet
import BCListener
import BCWebSocket
import Foundation
import Logging
import Testing

/// BCFleet's getting-started article, its example as printed there. Compiled only: it needs NATS JetStream on
/// 127.0.0.1:4222 (BCFleetTests run the worker against real nats-server processes).
struct BCFleetGettingStarted {
    func runAWorker() async throws {
        // >>> printed in Sources/BCFleet/BCFleet.docc/GettingStarted.md
        let logger = Logger(label: "fleet")              // levels and metadata (worker, live, key)
        let publisher = try await LivePublisher.start(servers: ["nats://127.0.0.1:4222"], capacity: 10_000,
                                                      logger: logger)
        let maker = FleetMessageMaker { event, key in
            guard case .message(let response, _, _, let at) = event else { return nil }
            return ("{\"t\":\(response.t),\"kind\":\"\(response.kind)\"}", response.kind, at)   // one JSON object
        }
        let worker = FleetWorker(settings: FleetWorker.Settings(), publisher: publisher,
                                 loop: WebSocketLoop(name: "worker"), maker: maker, logger: logger)
        let running = Task { await worker.run() }
        // … later, to stop:
        running.cancel()
        await running.value
        let unpublished = await publisher.finish()      // 0 unless NATS stayed unreachable
        print("\(unpublished) messages not published")
        // <<< printed
    }
}
