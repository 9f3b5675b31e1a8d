import BCNATS
import Foundation
import Logging
import Synchronization

/// Publishes fleet messages to JetStream in the order they were appended, each until JetStream acks it.
///
/// The messages wait in a `PublishBuffer` (bounded; full means back-pressure on the lives, never loss). One task
/// publishes them one at a time, so the stream holds each channel's messages in the order received. A publish
/// that fails is retried with the same `Nats-Msg-Id` until it succeeds: after a lost ack, JetStream recognises
/// the retry and stores nothing twice. While NATS is unreachable the person is told once (a warning on `logger`), with how many
/// messages wait, and told again when NATS is back.
public final class LivePublisher: Sendable {
    let connection: NATSConnection
    let buffer: PublishBuffer
    let metrics: FleetMetrics
    /// The stream created when missing (its replicas, on a cluster).
    let stream: JetStreamStream
    private let logger: Logger
    private let reconnected = Signal()
    private let tasks = Mutex<[Task<Void, Never>]>([])
    private let counts = Mutex(Counts())
    /// How long one publish waits for its ack before it is retried.
    static let publishTimeout: Duration = .seconds(2)

    struct Counts {
        var published = 0
        var duplicates = 0
        /// Messages NATS can never take (over its max payload), reported one by one.
        var refused = 0
    }

    private init(connection: NATSConnection, capacity: Int, metrics: FleetMetrics, stream: JetStreamStream,
                 logger: Logger) {
        self.connection = connection
        self.stream = stream
        self.buffer = PublishBuffer(capacity: capacity)
        self.metrics = metrics
        self.logger = logger
    }

    /// Connects to `servers` (at once, or in the background if no server answers yet: messages then wait in the
    /// buffer) and starts publishing.
    public static func start(servers: [String], capacity: Int, metrics: FleetMetrics = FleetMetrics(),
                      stream: JetStreamStream = FleetSubjects.messages, logger: Logger) async throws -> LivePublisher {
        var options = NATSConnectionOptions(servers: servers)
        options.name = "bcstream \(ProcessInfo.processInfo.processIdentifier)"
        options.reconnectWait = .milliseconds(250)
        let connection: NATSConnection
        do {
            connection = try await NATSConnection.connect(options)
        } catch {
            throw FleetFailure("cannot use NATS at \(servers.joined(separator: ",")): \(error)")
        }
        let publisher = LivePublisher(connection: connection, capacity: capacity, metrics: metrics, stream: stream,
                                      logger: logger)
        if !connection.isConnected {
            logger.warning("NATS at \(servers.joined(separator: ",")) does not answer yet; messages wait (at most \(capacity)) until it does")
        }
        let watch = Task { await publisher.watchConnection() }
        let loop = Task { await publisher.publishLoop() }
        publisher.tasks.withLock { $0 = [watch, loop] }
        return publisher
    }

    /// Queues `message`; waits while the buffer is full.
    public func append(_ message: FleetMessage) async {
        await buffer.append(message)
        metrics.bufferDepth.record(buffer.count)
    }

    /// How long stopping waits for what is left to be published. A signal cannot shorten it: a second signal
    /// source for the same signal is not reliably delivered by libdispatch on Linux, so the bound is a clock.
    public static let drainLimit: Duration = .seconds(10)

    /// Publishes what is left (for at most `limit`) and closes the connection. Returns how many messages were
    /// never published: 0, unless NATS stayed unreachable for the whole `limit`; they are then counted, reported
    /// and lost.
    public func finish(within limit: Duration = drainLimit) async -> Int {
        buffer.finish()
        let loop = tasks.withLock { $0.last }
        let waiting = buffer.count
        if waiting > 0, !connection.isConnected {
            let seconds = limit.components.seconds
            logger.warning("waiting up to \(seconds) s for NATS to publish the last \(waiting) message\(waiting == 1 ? "" : "s")")
        }
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await loop?.value
                return true
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            if await group.next() == false { loop?.cancel() }
            group.cancelAll()
        }
        let lost = buffer.count
        if lost > 0 {
            metrics.unpublished.increment(by: Int64(lost))
            logger.error("\(lost) message\(lost == 1 ? " was" : "s were") not published to NATS (it stayed unreachable while stopping)")
        }
        for task in tasks.withLock({ $0 }) { task.cancel() }
        await connection.close()
        return lost
    }

    /// What was published, for the last line on stderr: messages, duplicates, refusals, pauses.
    public var summary: String {
        let counts = counts.withLock { $0 }
        var text = "published \(counts.published) message\(counts.published == 1 ? "" : "s") to JetStream"
        if counts.duplicates > 0 { text += " (\(counts.duplicates) retr\(counts.duplicates == 1 ? "y" : "ies") recognised as duplicates)" }
        if counts.refused > 0 { text += "; \(counts.refused) refused by NATS (too big)" }
        if buffer.fullHits > 0 { text += "; reading paused \(buffer.fullHits) time\(buffer.fullHits == 1 ? "" : "s") while the publish buffer was full" }
        return text
    }

    /// Reports the connection's drops and returns, and wakes a publish waiting for it.
    private func watchConnection() async {
        for await event in connection.events {
            switch event {
            case .connected:
                logger.info("connected to NATS")
                reconnected.fire()
            case .disconnected:
                logger.warning("lost the connection to NATS; reconnecting (messages wait in the buffer)")
            case .reconnected:
                metrics.reconnects.increment()
                logger.info("reconnected to NATS")
                reconnected.fire()
            case .closed:
                return
            }
        }
    }

    private func publishLoop() async {
        var streamReady = false
        var outage: (since: ContinuousClock.Instant, told: Bool, toldFull: Bool)?
        var backoff: Duration = .milliseconds(100)
        while let message = await buffer.first() {
            do throws(NATSError) {
                if !streamReady {
                    try await connection.ensureStream(stream)
                    streamReady = true
                }
                let started = ContinuousClock.now
                let ack = try await connection.publish(message.payload, to: message.subject, messageID: message.id,
                                                       timeout: Self.publishTimeout)
                let latency = (ContinuousClock.now - started).components
                metrics.publishLatency.recordNanoseconds(latency.seconds * 1_000_000_000 + latency.attoseconds / 1_000_000_000)
                counts.withLock {
                    $0.published += 1
                    if ack.duplicate { $0.duplicates += 1 }
                }
                metrics.published(kind: message.kind)
                logger.trace("published \(message.id) to \(message.subject)", metadata: ["duplicate": "\(ack.duplicate)"])
                buffer.removeFirst()
                metrics.bufferDepth.record(buffer.count)
                backoff = .milliseconds(100)
                if let since = outage?.since, outage?.told == true {
                    let waited = ContinuousClock.now - since
                    logger.info("NATS takes messages again after \(waited.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1)))); \(buffer.count) more waiting")
                }
                outage = nil
            } catch {
                if error.status == NATS_MAX_PAYLOAD_STATUS {
                    // It can never be published: skipped, and said, never silently.
                    counts.withLock { $0.refused += 1 }
                    metrics.unpublished.increment()
                    logger.error("not published: \(message.subject) of \(message.payload.count) bytes is over NATS's max payload")
                    buffer.removeFirst()
                    continue
                }
                if error.isNotFound || error.jetStreamCode == 10059 || error.status == NATS_NO_RESPONDERS_STATUS {
                    streamReady = false  // the stream may be gone (a new server): made again on the next try
                }
                if Task.isCancelled { return }
                var current = outage ?? (since: ContinuousClock.now, told: false, toldFull: false)
                if !current.told, ContinuousClock.now - current.since > .seconds(1) || !connection.isConnected {
                    current.told = true
                    logger.warning("cannot publish to NATS: \(error); \(buffer.count) message\(buffer.count == 1 ? "" : "s") wait (the buffer holds \(buffer.capacity)), retrying; nothing is dropped")
                }
                if !current.toldFull, buffer.isFull {
                    current.toldFull = true
                    logger.warning("the publish buffer is full (\(buffer.capacity) messages): reading the lives pauses until NATS takes them")
                }
                outage = current
                // Disconnected: the reconnection is the event to wait for (bounded, as JetStream may need a moment
                // more). Connected but failing (JetStream electing a leader): a short back-off.
                if connection.isConnected {
                    try? await Task.sleep(for: backoff)
                    backoff = min(backoff * 2, .seconds(2))
                } else {
                    await reconnected.wait(upTo: .seconds(5))
                }
            }
        }
    }
}

/// nats.c statuses the publisher tells apart (raw values of `natsStatus`).
let NATS_MAX_PAYLOAD_STATUS = NATSError.maxPayloadStatus
let NATS_NO_RESPONDERS_STATUS = NATSError.noRespondersStatus

/// A wake-up for whoever waits now: `fire()` resumes every current waiter.
final class Signal: Sendable {
    private let waiters = Mutex<[UInt64: CheckedContinuation<Void, Never>]>([:])
    private let nextID = Mutex<UInt64>(0)

    func fire() {
        let woken = waiters.withLock { waiters in
            defer { waiters = [:] }
            return Array(waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns at the next `fire()`, after `limit`, or when the task is cancelled.
    func wait(upTo limit: Duration) async {
        let id = nextID.withLock { id in
            defer { id += 1 }
            return id
        }
        let timer = Task {
            try? await Task.sleep(for: limit)
            self.resume(id)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let cancelled = waiters.withLock { waiters -> Bool in
                    if Task.isCancelled { return true }
                    waiters[id] = continuation
                    return false
                }
                if cancelled { continuation.resume() }
            }
        } onCancel: {
            self.resume(id)
        }
        timer.cancel()
    }

    private func resume(_ id: UInt64) {
        waiters.withLock { $0.removeValue(forKey: id) }?.resume()
    }
}
