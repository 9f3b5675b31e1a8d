import BCMessages
import BCWebSocket
import Foundation

/// Follows one live's bcsvr channel: connects, subscribes, keeps the link alive, reconnects with back-off,
/// records and decodes every frame, and reports it all as an `AsyncSequence` of `BCListenerEvent`s that
/// finishes when the live ends, when the listener gives up, or when the consumer stops iterating.
///
/// ```swift
/// let listener = ChannelListener(configuration: .init(key: "118f91f:UdoBre1M", url: url))
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

    public init(configuration: BCListenerConfiguration, webSocket: WebSocketClientConfiguration = .init(),
                recorder: FrameRecorder? = nil, loop: WebSocketLoop = .shared) {
        self.configuration = configuration
        self.webSocket = webSocket
        self.recorder = recorder
        self.loop = loop
    }

    public func makeAsyncIterator() -> Iterator {
        let (deliveries, continuation) = AsyncStream.makeStream(of: Delivery.self)
        let inputs = BatchQueue<Input>()
        let window = ReceiveWindow(maxMessages: configuration.maxHeldMessages, maxBytes: configuration.maxHeldBytes) {
            inputs.push(.readingPaused($0))
        }
        let session = Task { [self] in
            await run(inputs: inputs, window: window, reportingTo: continuation)
            continuation.finish()
        }
        continuation.onTermination = { _ in session.cancel() }
        return Iterator(deliveries: deliveries.makeAsyncIterator(), window: window)
    }

    /// Hands out the session's events, and gives each frame's room back to the flow control once the consumer
    /// has taken what it produced.
    public struct Iterator: AsyncIteratorProtocol {
        var deliveries: AsyncStream<Delivery>.Iterator
        let window: ReceiveWindow

        public mutating func next() async -> BCListenerEvent? {
            guard let delivery = await deliveries.next() else { return nil }
            if let bytes = delivery.releases { window.release(bytes: bytes) }
            return delivery.event
        }

        /// Whether more received frames wait behind the event `next()` returned last: a consumer that buffers
        /// its output flushes it when this is false (the input went idle), so a quiet live is seen at once.
        public var moreAreWaiting: Bool {
            window.held.messages > 0
        }
    }

    /// An event, and the frame whose room it gives back when taken (the last event a frame produced).
    struct Delivery: Sendable {
        var event: BCListenerEvent
        var releases: Int?
    }

    /// What the session loop reacts to: news from the connection it opened last, or its timer.
    enum Input: Sendable {
        /// `at`: when the loop's thread handed the event over, the frame's time of arrival.
        case socket(generation: Int, WebSocketEvent, at: Date)
        case timer(generation: Int)
        case readingPaused(Bool)
    }

    private func run(inputs: BatchQueue<Input>, window: ReceiveWindow,
                     reportingTo deliveries: AsyncStream<Delivery>.Continuation) async {
        let output = EventOutput(deliveries: deliveries)
        guard let url = WebSocketURL(string: configuration.url.absoluteString) else {
            output.yield(.failed(.rejected(.other("not a ws:// or wss:// URL: \(configuration.url.absoluteString)"))))
            return
        }
        var connectionSettings = webSocket
        // The state machine owns the connect deadline and reports it; lws gets a little more so it never
        // fires first with a vaguer message.
        connectionSettings.connectTimeout = configuration.connectTimeout + .seconds(1)

        var machine = BCSessionStateMachine(configuration: configuration)
        let clock = ContinuousClock()
        let origin = clock.now
        var connection: WebSocketLink?
        // Bumped whenever the machine leaves a connection or a timer behind, so late news from it is ignored.
        var connectionGeneration = 0
        var timerGeneration = 0
        var timer: Task<Void, Never>?
        defer {
            connection?.close(code: BCSessionStateMachine.CloseCode.normal, reason: "listener stopped")
            timer?.cancel()
            inputs.finish()
        }

        /// Performs the machine's actions in order; false once the session is over. `releasing`: the size of the
        /// frame the actions answer, whose room the last emitted event gives back (at once if none is emitted).
        func perform(_ actions: [BCSessionStateMachine.Action], releasing frameBytes: Int? = nil) -> Bool {
            let lastEmit = frameBytes == nil ? nil : actions.lastIndex {
                if case .emit = $0 { true } else { false }
            }
            if let frameBytes, lastEmit == nil { window.release(bytes: frameBytes) }
            for (index, action) in actions.enumerated() {
                switch action {
                case .connect:
                    connectionGeneration += 1
                    let generation = connectionGeneration
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
                    timer = Task {
                        try? await clock.sleep(until: origin + instant)
                        if !Task.isCancelled { inputs.push(.timer(generation: generation)) }
                    }
                case .cancelTimer:
                    timer?.cancel()
                    timerGeneration += 1
                case .emit(let event):
                    output.yield(event, releasing: index == lastEmit ? frameBytes : nil)
                case .finish:
                    connection = nil
                    return false
                }
            }
            return true
        }

        guard perform(machine.handle(.start, at: clock.now - origin)) else { return }
        // Frames come in batches (everything the loop thread queued since the last one): one wake-up per batch.
        while true {
            let batch = await inputs.next()
            if batch.isEmpty { break }
            for input in batch {
                let now = clock.now - origin
                let event: BCSessionStateMachine.Event
                var frameBytes: Int?
                switch input {
                case .timer(let generation):
                    guard generation == timerGeneration else { continue }
                    event = .timerFired
                case .readingPaused(let paused):
                    event = .readingPaused(paused)
                case .socket(let generation, let socketEvent, let receivedAt):
                    // Every frame is recorded, even one from a connection the session has left.
                    switch socketEvent {
                    case .text(let text):
                        record(RecordedFrame(time: receivedAt, key: configuration.key, text: text), output: output)
                        frameBytes = text.utf8.count
                    case .binary(let bytes):
                        record(RecordedFrame(time: receivedAt, key: configuration.key, content: .bytes(bytes), binary: true),
                               output: output)
                        frameBytes = bytes.count
                    case .refused(let refused):
                        record(RecordedFrame(refused, at: receivedAt, key: configuration.key), output: output)
                    case .upgrading, .opened, .closed, .failed:
                        break
                    }
                    guard generation == connectionGeneration else {
                        if let frameBytes { window.release(bytes: frameBytes) }
                        continue
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
                        output.yield(.undecodable(nil, raw: text,
                                                  reason: "a binary frame of \(bytes.count) bytes; bcsvr sends text"),
                                     releasing: bytes.count)
                        continue
                    case .refused:
                        // Reported by the close that follows (1009 or 1007); the recording has the frame.
                        continue
                    case .closed(let reason):
                        connection = nil
                        event = .connectionClosed(BCTransportFailure(reason))
                    case .failed(let failure):
                        connection = nil
                        event = .connectFailed(BCTransportFailure(failure))
                    }
                }
                guard perform(machine.handle(event, at: now), releasing: frameBytes) else { return }
            }
        }
        // The consumer went away (the stream was cancelled): leave the server politely.
        _ = perform(machine.handle(.cancel, at: clock.now - origin))
    }

    private func record(_ frame: RecordedFrame, output: EventOutput) {
        guard let recorder else { return }
        do {
            try recorder.record(frame)
        } catch {
            output.yield(.recordingFailed("\(recorder.path): \(error)"))
        }
    }
}

/// The session's side of the consumer's stream.
private struct EventOutput {
    let deliveries: AsyncStream<ChannelListener.Delivery>.Continuation

    func yield(_ event: BCListenerEvent, releasing bytes: Int? = nil) {
        deliveries.yield(ChannelListener.Delivery(event: event, releases: bytes))
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
        case .requested, .peerClosed, .loopStopped:
            self = .closed(code: reason.code, reason: reason.text)
        }
    }
}
