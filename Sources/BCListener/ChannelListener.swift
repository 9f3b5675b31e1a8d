import BCMessages
import BCWebSocket
import Foundation

/// Follows one live's bcsvr channel: connects, subscribes, keeps the link alive, reconnects with back-off,
/// records and decodes every frame, and reports it all as an `AsyncSequence` of `BCListenerEvent`s that
/// finishes when the live ends, when the listener gives up, or when the consumer stops iterating.
///
/// ```swift
/// let listener = ChannelListener(configuration: .init(key: try ChannelKey("118f91f:UdoBre1M"), url: url))
/// for await event in listener {
///     if case .message(.gift(let gift), _, _, _) = event { show(gift) }
/// }
/// ```
///
/// The decisions (when to ping, reconnect, give up) are `BCSessionStateMachine`'s; this type only performs
/// them on a libwebsockets connection. Each iteration runs its own session; several listeners can share one
/// `WebSocketLoop` to follow several channels in one process. Cancelling the consuming task closes the
/// connection and ends the session at once.
///
/// Memory stays bounded whatever the server's pace: at most `maxHeldMessages` messages (or `maxHeldBytes`) wait
/// for the consumer; past that the listener stops reading the socket until the consumer catches up
/// (`.readingPaused`), so a slow consumer shows as lag, never as growth.
public struct ChannelListener: AsyncSequence, Sendable {
    public typealias Element = BCListenerEvent

    /// The session's protocol, keepalive and reconnect settings.
    public var configuration: BCListenerConfiguration
    /// TLS, compression, message size and WebSocket-level ping settings of each connection.
    public var webSocket: WebSocketClientConfiguration
    /// Where every received frame is written before it is decoded, if anywhere.
    public var recorder: FrameRecorder?
    /// The libwebsockets loop that carries the connections.
    public var loop: WebSocketLoop

    /// A listener that connects, on `loop`, only once iterated; `recorder`, if given, receives every frame.
    public init(configuration: BCListenerConfiguration, webSocket: WebSocketClientConfiguration = .init(),
                recorder: FrameRecorder? = nil, loop: WebSocketLoop = .shared) {
        self.configuration = configuration
        self.webSocket = webSocket
        self.recorder = recorder
        self.loop = loop
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(session: ListenerSession(listener: self))
    }

    /// Hands out the session's events. The session runs here, on the consumer's side: each call takes the
    /// batch of frames and timer ticks the loop's thread queued since the last one (one wake-up per batch, not
    /// per frame), decodes them in the consumer's own task, and hands the events out one by one. So channels
    /// read by different tasks decode on as many cores, and no task sits between the socket and the consumer.
    public struct Iterator: AsyncIteratorProtocol {
        let session: ListenerSession
        /// The inputs being handled, and then the array the next batch is taken into.
        private var batch: [Input] = []

        init(session: ListenerSession) {
            self.session = session
        }

        public mutating func next() async -> BCListenerEvent? {
            await next(isolation: nil)
        }

        /// Runs on the consumer's isolation: the session's state is touched only here, by one consumer.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> BCListenerEvent? {
            while true {
                // Like an AsyncStream's: a cancelled consumer gets nil at once, and the session leaves the server.
                if Task.isCancelled { session.handle([]) }
                if let event = session.takeEvent() { return event }
                if session.isOver { return nil }
                await handleNextInputs()
            }
        }

        /// Waits for what the loop's thread and the timers queued, and runs the session over all of it.
        private mutating func handleNextInputs(isolation actor: isolated (any Actor)? = #isolation) async {
            await session.inputs.queue.next(into: &batch)
            session.handle(batch)
            batch.removeAll(keepingCapacity: true)  // the frames are the events' now: not held twice
        }

        /// The batch API: replaces `events` (its storage kept) with every event the session has ready, in order,
        /// waiting while there is none; false, with `events` empty, once the listener is over (where `next()`
        /// returns nil). Under load that is every message of the frames the loop's thread read since the last call:
        /// one call, and at most one suspension, per batch rather than per event, for consumers that write or
        /// publish in bulk. `next()` and this hand out the same events, each once, and may be mixed.
        ///
        /// ```swift
        /// var iterator = listener.makeAsyncIterator()
        /// var events: [BCListenerEvent] = []
        /// while await iterator.nextBatch(into: &events) {
        ///     store(events)
        /// }
        /// ```
        public mutating func nextBatch(into events: inout [BCListenerEvent],
                                       isolation actor: isolated (any Actor)? = #isolation) async -> Bool {
            events.removeAll(keepingCapacity: true)
            while true {
                if Task.isCancelled { session.handle([]) }
                while let event = session.takeEvent() { events.append(event) }
                if !events.isEmpty { return true }
                if session.isOver { return false }
                await handleNextInputs()
            }
        }

        /// Whether more received frames wait behind the event `next()` returned last: a consumer that buffers
        /// its output flushes it when this is false (the input went idle), so a quiet live is seen at once.
        public var moreAreWaiting: Bool {
            session.window.hasHeldMessages
        }
    }

    /// An event, and the frame whose room it gives back when taken (the last event a frame produced).
    struct Delivery: Sendable {
        var event: BCListenerEvent
        var releases: Int?
    }

    /// What the session reacts to: news from the connection it opened last, or its timer.
    enum Input: Sendable {
        /// `at`: when the loop's thread handed the event over, the frame's time of arrival.
        case socket(generation: Int, WebSocketEvent, at: Date)
        case timer(generation: Int)
        case readingPaused(Bool)
    }
}

/// One iteration's session: the state machine and the connection it drives, owned by the iterator and run by
/// the consumer (`ChannelListener.Iterator.next`), or by `DirectDriver` where its inputs arrive
/// (`ChannelListener.run(handler:)`). Not Sendable: one of them at a time touches it; what the loop's thread and
/// the timers produce reaches it through `inputs`.
final class ListenerSession {
    let inputs: SessionInputs
    let window: ReceiveWindow
    private let configuration: BCListenerConfiguration
    private let webSocket: WebSocketClientConfiguration
    private let recorder: FrameRecorder?
    private let loop: WebSocketLoop
    private var machine: BCSessionStateMachine
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant
    private var connection: WebSocketLink?
    /// Bumped whenever the machine leaves a connection or a timer behind, so late news from it is ignored.
    private var connectionGeneration = 0
    private var timerGeneration = 0
    private var timer: Task<Void, Never>?
    /// The machine's actions for one input, reused from one input to the next.
    private var actions: [BCSessionStateMachine.Action] = []
    /// Events made and not handed out yet, in order, from `next`.
    /// Each taken (moved out, left nil) as it is handed out: an event is not copied and destroyed again.
    private var pending: [ChannelListener.Delivery?] = []
    private var next = 0
    /// Frames whose last event was taken, not yet given back to `window` (`takeEvent`).
    private var unreleased = (messages: 0, bytes: 0)
    /// The session is over (finished, or the consumer went away): nothing more will be made.
    private(set) var isOver = false
    private let url: WebSocketURL?
    private let connectionSettings: WebSocketClientConfiguration

    /// A session whose inputs go to `inputs` (its queue, or its driver). It connects at once.
    init(listener: ChannelListener, inputs: SessionInputs = SessionInputs()) {
        self.inputs = inputs
        configuration = listener.configuration
        webSocket = listener.webSocket
        recorder = listener.recorder
        loop = listener.loop
        machine = BCSessionStateMachine(configuration: configuration)
        origin = clock.now
        let inputs = inputs
        window = ReceiveWindow(maxMessages: configuration.maxHeldMessages, maxBytes: configuration.maxHeldBytes) {
            inputs.push(.readingPaused($0))
        }
        url = WebSocketURL(string: configuration.url.absoluteString)
        var connectionSettings = webSocket
        // The state machine owns the connect deadline and reports it; lws gets a little more so it never
        // fires first with a vaguer message.
        connectionSettings.connectTimeout = configuration.connectTimeout + .seconds(1)
        self.connectionSettings = connectionSettings
        guard url != nil else {
            emit(.failed(.rejected(.other("not a ws:// or wss:// URL: \(configuration.url.absoluteString)"))))
            end()
            return
        }
        // Connects at once, before the first `next()`.
        if !perform(machine.handle(.start, at: clock.now - origin)) { end() }
    }

    /// The consumer went away without finishing the iteration: leave the server politely.
    deinit {
        if !isOver { _ = perform(machine.handle(.cancel, at: clock.now - origin)) }
        connection?.close(code: BCSessionStateMachine.CloseCode.normal, reason: "listener stopped")
        timer?.cancel()
        inputs.finish()
    }

    /// The next event made; nil when none waits. Its frame's room goes back to the flow control with others',
    /// when the batch's last event is taken or `releaseEvery` have been: one lock for many messages, not one each
    /// (the lock is shared with the loop's thread, so each taking moved its cache line between cores). Until then
    /// the frames still count as held, and the batch's events are still waiting, so `moreAreWaiting` holds either
    /// way.
    func takeEvent() -> BCListenerEvent? {
        guard next < pending.count, let delivery = pending[next].take() else { return nil }
        next += 1
        if let bytes = delivery.releases {
            unreleased.messages += 1
            unreleased.bytes += bytes
        }
        if next == pending.count {
            pending.removeAll(keepingCapacity: true)
            next = 0
            releaseTaken()
        } else if unreleased.messages >= Self.releaseEvery {
            releaseTaken()
        }
        return delivery.event
    }

    /// The most frames whose events were taken before their room goes back, within a batch: a batch of a
    /// thousand held whole kept the window full and the loop's reading paused until its end (5% less throughput
    /// end to end), while one lock for 64 messages costs nothing measurable.
    static let releaseEvery = 64

    /// Gives back the room of the frames whose events were taken.
    private func releaseTaken() {
        guard unreleased.messages > 0 else { return }
        window.release(messages: unreleased.messages, bytes: unreleased.bytes)
        unreleased = (0, 0)
    }

    /// Handles a batch from `inputs`. An empty batch means the consumer's task was cancelled (or the queue
    /// finished): the session leaves the server and is over.
    func handle(_ batch: [ChannelListener.Input]) {
        guard !isOver else { return }
        if batch.isEmpty {
            _ = perform(machine.handle(.cancel, at: clock.now - origin))
            pending.removeAll()
            next = 0
            end()
            return
        }
        // One reading of the clock for the batch, not one a frame: a batch is handled within microseconds.
        let now = clock.now - origin
        for input in batch {
            if !handle(input, at: now) {
                end()
                return
            }
        }
    }

    private func end() {
        isOver = true
        connection?.close(code: BCSessionStateMachine.CloseCode.normal, reason: "listener stopped")
        connection = nil
        timer?.cancel()
        timer = nil
        inputs.finish()
    }

    private func emit(_ event: consuming BCListenerEvent, releasing bytes: Int? = nil) {
        pending.append(ChannelListener.Delivery(event: event, releases: bytes))
    }

    /// Handles one input, at `now` (since `origin`); false once the session is over.
    private func handle(_ input: ChannelListener.Input, at now: Duration) -> Bool {
        let event: BCSessionStateMachine.Event
        var frameBytes: Int?
        switch input {
        case .timer(let generation):
            guard generation == timerGeneration else { return true }
            event = .timerFired
        case .readingPaused(let paused):
            event = .readingPaused(paused)
        case .socket(let generation, let socketEvent, let receivedAt):
            // Every frame is recorded, even one from a connection the session has left.
            switch socketEvent {
            case .text(let text):
                record(RecordedFrame(time: receivedAt, key: configuration.key.text, text: text))
                frameBytes = text.utf8.count
            case .binary(let bytes):
                record(RecordedFrame(time: receivedAt, key: configuration.key.text, content: .bytes(bytes), binary: true))
                frameBytes = bytes.count
            case .refused(let refused):
                record(RecordedFrame(refused, at: receivedAt, key: configuration.key.text))
            case .upgrading, .opened, .closed, .failed:
                break
            }
            guard generation == connectionGeneration else {
                if let frameBytes { window.release(bytes: frameBytes) }
                return true
            }
            switch socketEvent {
            case .upgrading:
                event = .upgradeRequested
            case .opened:
                event = .connectionOpened
            case .text(let text):
                event = .frameReceived(text, receivedAt: receivedAt)
            case .binary(let bytes):
                let text = String(decoding: bytes, as: UTF8.self)
                emit(.undecodable(nil, raw: text, reason: "a binary frame of \(bytes.count) bytes; bcsvr sends text"),
                     releasing: bytes.count)
                return true
            case .refused:
                // Reported by the close that follows (1009 or 1007); the recording has the frame.
                return true
            case .closed(let reason):
                connection = nil
                event = .connectionClosed(BCTransportFailure(reason))
            case .failed(let failure):
                connection = nil
                event = .connectFailed(BCTransportFailure(failure))
            }
        }
        machine.handle(event, at: now, into: &actions)
        // Emptied once `perform` is done with it (nothing it calls touches `actions`), its storage kept.
        defer { actions.removeAll(keepingCapacity: true) }
        return perform(moving: &actions, releasing: frameBytes)
    }

    /// Performs the machine's actions in order; false once the session is over. `releasing`: the size of the
    /// frame the actions answer, whose room the last emitted event gives back (at once if none is emitted).
    private func perform(_ actions: [BCSessionStateMachine.Action], releasing frameBytes: Int? = nil) -> Bool {
        var actions = actions
        return perform(moving: &actions, releasing: frameBytes)
    }

    /// `perform`, taking each action out of `actions` (left with placeholders) rather than copying it: a message
    /// goes to the pending list without a retain and a release of everything it holds.
    private func perform(moving actions: inout [BCSessionStateMachine.Action], releasing frameBytes: Int? = nil) -> Bool {
        let lastEmit = frameBytes == nil ? nil : actions.lastIndex {
            if case .emit = $0 { true } else { false }
        }
        if let frameBytes, lastEmit == nil { window.release(bytes: frameBytes) }
        for index in actions.indices {
            var action = BCSessionStateMachine.Action.cancelTimer
            swap(&action, &actions[index])
            switch consume action {
            case .connect:
                guard let url else { continue }
                connectionGeneration += 1
                let generation = connectionGeneration
                let inputs = inputs
                // Straight from the loop's thread onto the session's queue: no task in between per frame.
                connection = loop.connect(to: url, configuration: connectionSettings, window: window) { event in
                    inputs.push(.socket(generation: generation, event, at: Date()))
                }
            case .send(let text):
                connection?.send(text)
            case .close(let code, let reason):
                connection?.close(code: code, reason: reason)
                connection = nil
                connectionGeneration += 1
            case .setTimer(let instant):
                timer?.cancel()
                timerGeneration += 1
                let generation = timerGeneration
                let inputs = inputs
                let clock = clock
                let deadline = origin + instant
                timer = Task {
                    try? await clock.sleep(until: deadline)
                    if !Task.isCancelled { inputs.push(.timer(generation: generation)) }
                }
            case .cancelTimer:
                timer?.cancel()
                timerGeneration += 1
            case .emit(let event):
                emit(event, releasing: index == lastEmit ? frameBytes : nil)
            case .finish:
                connection = nil
                return false
            }
        }
        return true
    }

    /// Records `frame`, made only when there is a recorder (it copies the frame and the key).
    private func record(_ frame: @autoclosure () -> RecordedFrame) {
        guard let recorder else { return }
        do {
            try recorder.record(frame())
        } catch {
            emit(.recordingFailed("\(recorder.path): \(error)"))
        }
    }
}

extension RecordedFrame {
    /// A message the connection refused: its bytes (the start of it, when too big), and why.
    init(_ refused: RefusedMessage, at time: Date, key: String) {
        let reason = switch refused.reason {
        case .tooBig(let limit): "larger than \(limit) bytes (closed with 1009)"
        case .invalidUTF8: "a text frame that is not UTF-8 (closed with 1007)"
        }
        self.init(time: time, key: key, content: .bytes(refused.prefix), binary: refused.binary, refused: reason,
                  size: refused.truncated ? refused.size : nil)
    }
}

extension BCTransportFailure {
    /// A connection attempt's failure, in the session's words.
    init(_ failure: WebSocketConnectFailure) {
        switch failure {
        case .dnsFailed: self = .dnsFailed
        case .refused: self = .refused
        case .timedOut(let after): self = .timedOut(after: after)
        case .handshakeTimedOut(let after): self = .handshakeTimedOut(after: after)
        case .tls(let detail): self = .tls(detail)
        case .httpStatus(let status): self = .httpStatus(status)
        case .cancelled: self = .other("connection attempt abandoned")
        case .other(let detail): self = .other(detail)
        }
    }

    /// Why an open connection ended, in the session's words.
    init(_ reason: WebSocketCloseReason) {
        switch reason.cause {
        case .silence(let after):
            self = .closed(code: reason.code, reason: "silent link: no pong for \(after.spoken)")
        case .messageTooBig(let limit):
            self = .closed(code: reason.code, reason: "a message was larger than \(limit) bytes")
        case .connectionLost:
            self = .closed(code: reason.code, reason: "connection lost")
        case .invalidUTF8:
            self = .closed(code: reason.code, reason: "a text message was not valid UTF-8")
        case .protocolViolation(let what):
            self = .closed(code: reason.code, reason: "the server broke the WebSocket protocol: \(what)")
        case .requested, .peerClosed, .loopStopped:
            self = .closed(code: reason.code, reason: reason.text)
        }
    }
}
