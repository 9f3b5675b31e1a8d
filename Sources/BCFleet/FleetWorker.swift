import BCListener
import BCNATS
import BCWebSocket
import Foundation
import Logging
import Synchronization

/// Takes lives from the work queue `BCSTREAM_FOLLOW` and follows up to `maxLives` of them at once on one
/// `WebSocketLoop`, publishing what they say through the `LivePublisher` (docs/DESIGN.md, "The fleet on NATS
/// JetStream").
///
/// A claim (a fetched request) is kept alive by an in-progress ack every third of `claimTimeout` while its live is
/// followed; it is acked once the live ended (t=8 / t=123) or failed for good, after its last message was
/// published and its status (`bcstream.status.<channel>`) stored. A worker that dies stops sending in-progress:
/// JetStream hands its claims to another worker after `claimTimeout`. A worker stopped (cancelled: SIGTERM,
/// Ctrl-C) naks its claims at once, so another takes them without waiting.
public final class FleetWorker: Sendable {
    /// How many lives a worker follows and how it holds them.
    public struct Settings: Sendable {
        /// Lives followed at once.
        public var maxLives = 100
        /// How long a claim is kept without news before JetStream hands it to another worker.
        public var claimTimeout: Duration = .seconds(30)
        /// Failed connection attempts in a row after which a live fails for good (nil: never).
        public var maxAttempts: Int? = 20
        /// Time between bcsvr PINGs of each live.
        public var pingInterval: Duration = .seconds(30)
        /// How long one connection attempt may take.
        public var connectTimeout: Duration = .seconds(10)
        /// TLS (`caFile`, `insecure`), compression and sizes of each live's connection.
        public var webSocket = WebSocketClientConfiguration()
        /// Copies of each stream the worker creates (3 on a three-node cluster survives a node).
        public var replicas = 1
        /// Fetches a live's recent comments by its id on the API: a worker that takes over a live queued with its
        /// id stores the comments it missed (`BacklogRefill`). nil: no refill.
        public var backlog: (@Sendable (_ liveID: String) async -> Result<BacklogComments, LiveDirectoryError>)?
        /// How recent a refilled comment must be (`BacklogRefill.defaultWindow`).
        public var refillWindow = BacklogRefill.defaultWindow
        /// How long after subscribing the backlog is fetched: the API lists a comment some time after the live sent
        /// it, and one sent just before the subscription must be in the list.
        public var refillDelay: Duration = .seconds(2)

        /// The defaults.
        public init() {}
    }

    let settings: Settings
    let publisher: LivePublisher
    let loop: WebSocketLoop
    /// Where the worker says what it does; its metadata names the worker (`host:pid`), each line about a live
    /// adds the live's number in this run and its key.
    let logger: Logger
    let identity = "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"
    private let maker: FleetMessageMaker
    private let follows = Mutex(0)
    private let active = Mutex(0)
    private let slotFreed = Signal()

    /// A worker publishing through `publisher` what `maker` makes of the lives it follows on `loop`.
    public init(settings: Settings, publisher: LivePublisher, loop: WebSocketLoop, maker: FleetMessageMaker,
         logger: Logger) {
        self.settings = settings
        self.publisher = publisher
        self.loop = loop
        self.maker = maker
        var logger = logger
        logger[metadataKey: "worker"] = "\(identity)"
        self.logger = logger
    }

    private var connection: NATSConnection { publisher.connection }
    private var metrics: FleetMetrics { publisher.metrics }

    /// Claims and follows lives until cancelled; then hands back every claim and returns.
    public func run() async {
        guard let consumer = await openConsumer() else { return }
        logger.info("worker \(identity) waiting for lives on \(FleetSubjects.followSubject) (at most \(settings.maxLives) at once)")
        await withDiscardingTaskGroup { group in
            var told = false
            while !Task.isCancelled {
                let free = settings.maxLives - active.withLock { $0 }
                if free <= 0 {
                    await slotFreed.wait(upTo: .seconds(5))
                    continue
                }
                let claims: [NATSMessage]
                do {
                    claims = try await consumer.fetch(batch: min(free, 64), timeout: .seconds(1))
                    if told { logger.info("taking lives again") }
                    told = false
                } catch {
                    if !told { logger.warning("cannot take lives from NATS: \(error); retrying") }
                    told = true
                    await retryPause()
                    continue
                }
                for claim in claims {
                    if Task.isCancelled {
                        try? claim.nak()
                        continue
                    }
                    active.withLock { $0 += 1 }
                    metrics.livesActive.record(active.withLock { $0 })
                    group.addTask { [self] in
                        await follow(claim)
                        active.withLock { $0 -= 1 }
                        metrics.livesActive.record(active.withLock { $0 })
                        slotFreed.fire()
                    }
                }
            }
        }
    }

    /// Creates the streams and opens the shared durable consumer, retrying until NATS answers or the task is
    /// cancelled.
    private func openConsumer() async -> PullConsumer? {
        var told = false
        while !Task.isCancelled {
            do {
                try await connection.ensureStream(FleetSubjects.replicated(FleetSubjects.follow, settings.replicas))
                try await connection.ensureStream(FleetSubjects.replicated(FleetSubjects.status, settings.replicas))
                var configuration = PullConsumerConfiguration(stream: FleetSubjects.follow.name,
                                                              durable: FleetSubjects.workers,
                                                              subject: FleetSubjects.followSubject)
                configuration.ackWait = settings.claimTimeout
                return try await PullConsumer.open(configuration, on: connection)
            } catch {
                if !told { logger.warning("cannot open the work queue \(FleetSubjects.follow.name): \(error); retrying") }
                told = true
                await retryPause()
            }
        }
        return nil
    }

    /// After a failed NATS call: a second (disconnected calls fail at once while nats.c reconnects; there is no
    /// event for "JetStream is ready again").
    private func retryPause() async {
        try? await Task.sleep(for: .seconds(1))
    }

    /// Follows the live of one claim to its end, then acks it; naks it if cancelled first.
    private func follow(_ claim: NATSMessage) async {
        let request: FollowRequest
        switch FollowRequest.parse(claim.data, subject: claim.subject) {
        case .success(let parsed):
            request = parsed
        case .failure(let problem):
            // Terminated, not nak'd: a request that cannot be followed now never can, so it is never redelivered.
            try? claim.term()
            metrics.followRequestsRejected.increment()
            logger.warning("dropped a request that cannot be followed: \(problem)")
            return
        }
        let number = follows.withLock { number in
            defer { number += 1 }
            return number
        }
        var logger = logger
        logger[metadataKey: "live"] = "\(number)"
        logger[metadataKey: "key"] = "\(request.key)"
        let redelivered = claim.deliveries > 1 ? " (taken over: delivery \(claim.deliveries))" : ""
        logger.info("following \(request.key) on \(request.url)\(redelivered)")
        metrics.livesFollowed.increment()
        // A live taken over from a worker that died (or handed it back) is said so on its status subject when it is
        // claimed: a consumer learns that what the service sent between the two claims may be missing.
        async let resumed: Void = claim.deliveries > 1
            ? storeStatus(FollowStatus(status: "resumed", key: request.key, url: request.url,
                                       reason: "taken over (delivery \(claim.deliveries))", worker: identity,
                                       at: Date().formatted(.iso8601)),
                          key: request.key.text, follow: number, logger: logger)
            : ()
        let interval = settings.claimTimeout / 3
        let heartbeat = Task { [claim] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                try? claim.inProgress()
            }
        }
        defer { heartbeat.cancel() }

        guard let url = URL(string: request.url) else {  // parse checked it; never left claimed regardless
            try? claim.term()
            return
        }
        var configuration = BCListenerConfiguration(key: request.key, url: url)
        configuration.maxAttempts = settings.maxAttempts
        configuration.pingInterval = settings.pingInterval
        configuration.connectTimeout = settings.connectTimeout
        let listener = ChannelListener(configuration: configuration, webSocket: settings.webSocket, loop: loop)
        var outcome: (status: String, reason: String?)?
        var frame = 0
        // A take-over of a live whose id is known refills its gap from the API once subscribed (a comment sent
        // after the fetch then comes live; one that comes both ways is stored once).
        var refillSource = claim.deliveries > 1 ? request.live.flatMap { live in settings.backlog.map { (live, $0) } } : nil
        var refill: Task<Void, Never>?
        defer { refill?.cancel() }
        for await event in listener {
            if case .subscribed = event, let (live, fetch) = refillSource {
                refillSource = nil
                refill = Task { [logger] in await self.refill(request.key.text, live: live, fetch: fetch, logger: logger) }
            }
            if let message = maker.message(for: event, key: request.key.text, follow: number, frame: frame) {
                frame += 1
                await publisher.append(message)
            }
            switch event {
            case .ended:
                outcome = ("ended", nil)
            case .failed(let failure):
                outcome = ("failed", failure.description(host: configuration.host))
            default:
                break
            }
        }
        guard let outcome else {
            // Stopped before the live ended: another worker takes it now, and the server goes on from there. (A
            // live that did end is acked below even when stopping: following it again could bring nothing.)
            try? claim.nak()
            logger.info("handed back \(request.key)")
            return
        }
        await resumed
        await refill?.value
        // Acked only once its last message is in JetStream: a worker dying before that loses the claim, not them.
        await publisher.buffer.waitUntilRemoved(through: publisher.buffer.admittedCount)
        let status = FollowStatus(status: outcome.status, key: request.key, url: request.url, reason: outcome.reason,
                                  worker: identity, at: Date().formatted(.iso8601))
        await storeStatus(status, key: request.key.text, follow: number, logger: logger)
        do {
            try claim.ack()
            logger.info("\(request.key): \(outcome.reason.map { "failed: \($0)" } ?? "the live ended"); acked")
        } catch {
            logger.error("\(request.key): \(outcome.status), but the ack failed (\(error)); it will be followed again")
        }
    }

    /// Publishes the recent comments of live `live` (channel `key`) that a take-over may have missed.
    private func refill(_ key: String, live: String,
                        fetch: @Sendable (String) async -> Result<BacklogComments, LiveDirectoryError>,
                        logger: Logger) async {
        guard (try? await Task.sleep(for: settings.refillDelay)) != nil else { return }
        let backlog: BacklogComments
        switch await fetch(live) {
        case .success(let fetched):
            backlog = fetched
        case .failure(let error):
            logger.warning("\(key): taken over, but its recent comments could not be fetched to fill the gap: \(error)")
            return
        }
        let now = Date()
        let comments = BacklogRefill.comments(backlog.comments, now: now, window: settings.refillWindow)
        for comment in comments {
            if let message = maker.message(for: comment, key: key, at: now) { await publisher.append(message) }
        }
        logger.info("\(key): taken over; \(comments.count) recent comment\(comments.count == 1 ? "" : "s") of the last \(settings.refillWindow.components.seconds) s published to fill the gap (those stored already are dropped as duplicates)")
    }

    /// Stores a live's status, tried three times: a loaded JetStream can let one publish pass its timeout, and a
    /// status dropped then was lost for good. The message id makes a try whose ack was lost count once.
    private func storeStatus(_ status: FollowStatus, key: String, follow: Int, logger: Logger) async {
        let id = "status:\(identity):\(follow):\(status.status)"
        for attempt in 1...3 {
            do {
                _ = try await connection.publish(status.json, to: FleetSubjects.status(key: key), messageID: id,
                                                 timeout: LivePublisher.publishTimeout)
                return
            } catch {
                if attempt == 3 { logger.error("\(key): its status (\(status.status)) could not be stored: \(error)") }
            }
        }
    }
}
