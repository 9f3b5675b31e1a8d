import BCListener
import BCWebSocket

/// A bcsvr server on loopback that plays fixtures and recordings to subscribers, so a client under debug
/// receives exactly what a live stream would send.
///
/// A client sends `SUB\t<key>` and receives `MSG\t<key>\t<json>` lines; `PING` gets `ACK`. Each channel (key)
/// plays the schedule on its own, starting when its first subscriber arrives; every subscriber of that key
/// receives the same frames, byte for byte as stored. When a channel has no subscriber left (a drop, a
/// stall), its playback waits, and resumes for the next subscriber where it stopped: nothing sent twice. Where
/// it stopped is the last frame handed to the connections: frames still queued for a connection when it drops
/// (up to `sendQueueHighWater` behind) are gone with it. `push` sends items to every subscriber at once, for the
/// interactive prompt.
///
/// Memory stays bounded whatever clients do (`ReplayLimits`): a channel's playback goes no faster than its
/// subscribers read (a subscriber that stops reading for `stalledSubscriberTimeout` is closed), a client's send
/// queue is capped, keys per connection and channels are capped, and a channel nobody has come back to within
/// `resumeGrace` is forgotten.
public actor ReplayServer {
    /// The address listened on.
    public nonisolated let host: String
    /// The bound port.
    public nonisolated let port: Int
    /// What the server does, in order. Finishes after `stop()`.
    public nonisolated let activity: AsyncStream<ReplayActivity>

    let server: WebSocketServer
    let schedule: (any Sequence<ReplaySchedule.Step> & Sendable)?
    let faults: ReplayFaults
    /// What the server tolerates from clients.
    public nonisolated let limits: ReplayLimits
    private let report: AsyncStream<ReplayActivity>.Continuation
    /// Entries `activity`'s reader missed since the last one it got; told as `.skipped` once there is room.
    private var skippedActivity = 0
    /// Whether `activity` tells every item sent (`.sent`).
    private let logsSends: Bool

    struct Subscriber {
        var key: String?
        var sent = 0
        var stalled = false
        /// Every key this connection subscribed to, capped by `maxKeysPerConnection`.
        var keys: Set<String> = []
        /// Since when its send queue is over the high-water mark, if it is.
        var fullSince: ContinuousClock.Instant?
    }

    /// Every connection. Change a client's `key` or remove one only through `subscribe(_:to:)` and
    /// `forget(_:)`, which keep `subscribers` in step.
    var clients: [ClientID: Subscriber] = [:]
    /// The clients of each key (stalled ones too): what a channel's playback looks up on every step, which a
    /// walk over `clients` made quadratic (19,000 channels of one subscriber each: 19,000 × 19,000 per step).
    var subscribers: [String: Set<ClientID>] = [:]
    var playbacks: [String: Task<Void, Never>] = [:]
    /// Channels without subscribers, each with the task that forgets it when the grace period ends.
    var releases: [String: Task<Void, Never>] = [:]
    private var aChannelFinished = false
    /// The channels whose playback has started and not ended.
    var playing: Set<String> = []
    /// Playbacks waiting for their subscribers to read, by key.
    var roomWaiters: [String: [CheckedContinuation<Void, Never>]] = [:]
    var subscriberWaiters: [String: [CheckedContinuation<Void, Never>]] = [:]
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []
    var departureWaiters: [ClientID: CheckedContinuation<Void, Never>] = [:]
    private var eventLoop: Task<Void, Never>?
    private var stopping: Task<Void, Never>?

    /// Starts listening. With a `schedule` (a `ReplaySchedule`, or explicit steps like the demo's), each
    /// channel plays it from its first subscription; without one, only `push` sends.
    /// With `tls`, it serves `wss://`. Without `logsSends`, `activity` leaves out `.sent`: a server pushing
    /// messages as fast as a client reads (`bench --end-to-end`) would otherwise spend a good part of its time
    /// on a log entry per message that nobody reads.
    public init(host: String = "127.0.0.1", port: Int = 0, schedule: (any Sequence<ReplaySchedule.Step> & Sendable)?,
                faults: ReplayFaults = ReplayFaults(), limits: ReplayLimits = ReplayLimits(),
                tls: WebSocketServerConfiguration.TLS? = nil, logsSends: Bool = true) async throws {
        self.logsSends = logsSends
        server = try await WebSocketServer(configuration: WebSocketServerConfiguration(
            host: host, port: port, sendQueueHighWater: limits.sendQueueHighWater,
            sendQueueLowWater: limits.sendQueueHighWater / 4, maxQueuedBytes: limits.maxQueuedBytes, tls: tls))
        self.limits = limits
        self.host = server.host
        self.port = server.port
        self.schedule = schedule
        self.faults = faults
        (activity, report) = AsyncStream.makeStream(
            of: ReplayActivity.self, bufferingPolicy: .bufferingOldest(max(1, limits.maxPendingActivity)))
        let events = server.events
        eventLoop = Task { [weak self] in
            for await event in events {
                await self?.handle(event)
            }
        }
    }

    /// Sends `items` now to every subscriber of every channel.
    public func push(_ items: [ReplayItem]) {
        // The channels once per push, not per item: a push of a thousand items would otherwise walk every client
        // a thousand times.
        let keys = Array(subscribers.keys)
        guard faultsAllowRuns else {
            for item in items {
                for key in keys { send(item, on: key) }
            }
            return
        }
        for key in keys { send(items, on: key) }
    }

    /// Returns once channel `key` has a subscriber that reads (at once if it has one), or the server stops. A
    /// client's `SUB` reaches the server some time after the client sent it; `push` before then reaches nobody.
    public func waitForSubscriber(to key: ChannelKey) async {
        await waitForSubscriber(toChannel: key.text)
    }

    private func waitForSubscriber(toChannel key: String) async {
        if hasSubscribers(key) { return }
        await withCheckedContinuation { subscriberWaiters[key, default: []].append($0) }
    }

    /// Returns once every channel has played its whole schedule: at least one has, and none is still playing
    /// (a channel whose subscribers all left counts as playing until it is forgotten, `resumeGrace`). Never with
    /// `loop`.
    public func waitUntilEveryChannelFinished() async {
        if playedOut { return }
        await withCheckedContinuation { finishWaiters.append($0) }
    }

    /// True once a channel has finished and no other is playing (`waitUntilEveryChannelFinished`).
    public var playedOut: Bool { aChannelFinished && playing.isEmpty }

    /// How many times a channel waited for room for its next item, a subscriber being behind, and how many
    /// things happened that end such a wait (a subscriber drained or left, a wait timed out). The tests hold the
    /// first to the second: a wait that ends without a cause spins (see `roomForNext`).
    var roomWaits = 0
    var roomWakeCauses = 0

    /// A channel stopped playing (finished, or forgotten): wakes `waitUntilEveryChannelFinished` if it was the last.
    func stoppedPlaying(_ key: String) {
        playing.remove(key)
        guard playedOut else { return }
        for waiter in finishWaiters { waiter.resume() }
        finishWaiters = []
    }

    /// The channels with at least one subscriber, and how many each has.
    public var subscriptions: [String: Int] {
        subscribers.mapValues(\.count)
    }

    /// The bytes queued for a client and not yet written to its socket.
    public func queuedBytes(for client: ClientID) -> Int {
        server.queuedBytes(for: client)
    }

    /// The bytes queued for the subscribers of `key`, together.
    public func queuedBytesOfSubscribers(to key: ChannelKey) -> Int {
        (subscribers[key.text] ?? []).reduce(0) { $0 + server.queuedBytes(for: $1) }
    }

    /// The channels the server holds: those with subscribers, and those waiting out their grace period.
    public var channelCount: Int {
        playbacks.count
    }

    /// Closes every client, stops listening and ends `activity`. A second call waits for the first to finish.
    public func stop() async {
        if let stopping {
            await stopping.value
            return
        }
        let stopping = Task { await shutDown() }
        self.stopping = stopping
        await stopping.value
    }

    private func shutDown() async {
        for playback in playbacks.values { playback.cancel() }
        for release in releases.values { release.cancel() }
        for waiters in subscriberWaiters.values { for waiter in waiters { waiter.resume() } }
        subscriberWaiters = [:]
        for waiters in roomWaiters.values { for waiter in waiters { waiter.resume() } }
        roomWaiters = [:]
        for waiter in finishWaiters { waiter.resume() }
        finishWaiters = []
        for waiter in departureWaiters.values { waiter.resume() }
        departureWaiters = [:]
        // Say goodbye with a close frame and give it a moment to go out before the context goes away.
        if !clients.isEmpty {
            for client in clients.keys { server.close(client, code: 1001, reason: "replay stopped") }
            try? await Task.sleep(for: .milliseconds(200))
        }
        await server.stop()
        eventLoop?.cancel()
        report.finish()
    }

    /// Hands an entry to `activity`, bounded: a reader that is behind loses entries, counted, never memory.
    func log(_ entry: ReplayActivity) {
        if skippedActivity > 0 {
            guard case .enqueued = report.yield(.skipped(count: skippedActivity)) else {
                skippedActivity += 1
                return
            }
            skippedActivity = 0
        }
        if case .dropped = report.yield(entry) { skippedActivity += 1 }
    }

    // MARK: - Playback

    func play(_ schedule: any Sequence<ReplaySchedule.Step> & Sendable, on key: String) async {
        var steps = schedule.makeIterator()
        var next = steps.next()
        while let step = next {
            // A zero delay (`--speed max`) still yields, so that the server hears its clients between sends.
            if step.delay > .zero { try? await Task.sleep(for: step.delay) } else { await Task.yield() }
            if Task.isCancelled { return }
            while true {
                if !hasSubscribers(key) {
                    if faults.broadcast { break }  // sent to nobody: lost, as on a live service
                    await waitForSubscriber(toChannel: key)
                } else if await roomForNext(on: key) {
                    break
                }
                if Task.isCancelled { return }
            }
            next = steps.next()
            guard let following = next, following.delay == .zero, faultsAllowRuns else {
                send(step.item, on: key)
                continue
            }
            // The steps due at once go out together: one hand-off to each subscriber's connection and one log
            // entry for the run, not one per item (at `--speed max` those cost the server most of its time). A run
            // stops at `runLimit` bytes, so the room check above still comes every 64 KiB or so, or at
            // `runLimitItems` items (a looped recording of empty frames has no bytes to stop at).
            var run = [step.item, following.item]
            var bytes = step.item.approximateSize + following.item.approximateSize
            next = steps.next()
            while let item = next, item.delay == .zero, bytes < Self.runLimit, run.count < Self.runLimitItems {
                run.append(item.item)
                bytes += item.item.approximateSize
                next = steps.next()
            }
            send(run, on: key, asRun: true)
        }
        aChannelFinished = true
        log(.finished(key: key))
        stoppedPlaying(key)
    }

    /// The bytes of items a playback sends as one run, at most (about: a run stops once past it).
    public static let runLimit = 64 * 1024
    /// The items a playback sends as one run, at most.
    public static let runLimitItems = 1_024

    /// Faults count single messages, so with any of them items go one at a time.
    private var faultsAllowRuns: Bool {
        faults.dropAfter == nil && faults.stallAfter == nil && faults.fragments <= 1
    }

    /// Waits while a subscriber of `key` has more than the high-water mark queued; closes one that stays so
    /// for `stalledSubscriberTimeout`. True when every subscriber has room, false when the wait ended for
    /// another reason (a subscriber left, the channel was released) and the caller must look again.
    private func roomForNext(on key: String) async -> Bool {
        let now = ContinuousClock.now
        var earliest: ContinuousClock.Instant?
        for client in subscribers[key] ?? [] {
            guard let subscriber = clients[client], !subscriber.stalled, let since = subscriber.fullSince else {
                continue
            }
            if now - since >= limits.stalledSubscriberTimeout {
                let seconds = limits.stalledSubscriberTimeout.components.seconds
                refuse(client, "did not read for \(seconds) s (\(server.queuedBytes(for: client)) bytes waiting)",
                       reading: false)
                return false
            }
            earliest = min(earliest ?? since, since)
        }
        guard let earliest else { return true }
        let deadline = earliest + limits.stalledSubscriberTimeout
        // Only a timer that ran out wakes the waiters: cancelled (the wait ended first), it must not wake the
        // next wait. It did once, and each cancelled timer woke the wait that cancelled the next: the channel
        // spun, starting a timer task a turn whose dispatch timers lived on to their deadlines, some 80 MB a
        // second of them while a subscriber that never reads was held (ReplayLimitsTests).
        let timeout = Task {
            guard (try? await Task.sleep(until: deadline)) != nil else { return }
            self.roomWaitTimedOut(on: key)
        }
        roomWaits += 1
        await withCheckedContinuation { roomWaiters[key, default: []].append($0) }
        timeout.cancel()
        return false
    }

    private func roomWaitTimedOut(on key: String) {
        roomWakeCauses += 1
        wakeRoomWaiters(of: key)
    }

    func wakeRoomWaiters(of key: String) {
        for waiter in roomWaiters.removeValue(forKey: key) ?? [] { waiter.resume() }
    }

    private func send(_ item: ReplayItem, on key: String) {
        let binary = item.binaryFrame
        let text = item.frameUTF8(for: key)
        guard binary != nil || text != nil else { return }
        let receivers = receivers(of: key)
        for client in receivers {
            let queued = if let binary {
                server.send(binary, to: client, fragments: faults.fragments)
            } else {
                server.send(textUTF8: text ?? [], to: client, fragments: faults.fragments)
            }
            noteSent(1, queued: queued, to: client)
            injectFaults(into: client)
        }
        if logsSends { log(.sent(item, key: key, subscribers: receivers.count)) }
    }

    /// Sends `items` to the subscribers of `key`, in order, the text frames of a run handed to each subscriber's
    /// connection at once (`WebSocketServer.send(texts:to:)`), not one by one. Only without faults, which count
    /// single messages. `asRun` logs one `.sentRun` for them all instead of a `.sent` for each.
    private func send(_ items: [ReplayItem], on key: String, asRun: Bool = false) {
        let receivers = receivers(of: key)
        var texts: [[UInt8]] = []
        texts.reserveCapacity(items.count)
        func flush() {
            guard !texts.isEmpty else { return }
            for client in receivers { noteSent(texts.count, queued: server.send(texts: texts, to: client), to: client) }
            texts.removeAll(keepingCapacity: true)
        }
        for item in items {
            if let binary = item.binaryFrame {
                flush()
                for client in receivers { noteSent(1, queued: server.send(binary, to: client), to: client) }
            } else if let text = item.frameUTF8(for: key) {
                texts.append(text)
            } else {
                continue
            }
            if logsSends, !asRun { log(.sent(item, key: key, subscribers: receivers.count)) }
        }
        flush()
        if logsSends, asRun, let first = items.first, let last = items.last {
            log(.sentRun(first: first, last: last, count: items.count, key: key, subscribers: receivers.count))
        }
    }

    /// The clients subscribed to `key` and not stalled, in a stable order.
    private func receivers(of key: String) -> [ClientID] {
        var receivers: [ClientID] = []
        for client in subscribers[key] ?? [] where clients[client]?.stalled == false {
            receivers.append(client)
        }
        if receivers.count > 1 { receivers.sort() }
        return receivers
    }

    /// Counts `messages` sent to `client`, and when its queue (`queued` bytes) first passes the high-water mark.
    private func noteSent(_ messages: Int, queued: Int, to client: ClientID) {
        if queued > limits.sendQueueHighWater, clients[client]?.fullSince == nil {
            clients[client]?.fullSince = .now
        }
        clients[client]?.sent += messages
    }

    private func injectFaults(into client: ClientID) {
        guard let sent = clients[client]?.sent else { return }
        if let limit = faults.dropAfter, sent == limit {
            server.close(client, code: faults.dropCode, reason: "replay: drop after \(limit)")
            if let key = subscribe(client, to: nil) { left(key) }
            log(.fault(client, "dropped after \(limit) messages (close \(faults.dropCode))"))
        } else if let limit = faults.stallAfter, sent == limit {
            // No more ACKs from now on. The socket itself stops being read a moment later: stalling it holds
            // back queued sends too, and the message just sent must still reach the client.
            clients[client]?.stalled = true
            let server = server
            Task {
                try? await Task.sleep(for: .milliseconds(200))
                server.stall(client)
            }
            log(.fault(client, "stalled after \(limit) messages: no ACK, no pong"))
        }
    }
}
