#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BCMessages

/// Every decision of a bcsvr session, without a socket: subscribing, the `PING`/`ACK` keepalive, reading
/// frames, reconnecting with back-off, and stopping. The transport tells it what happened (`Event`) and
/// performs what it answers (`Action`), in order. Time and randomness come from outside, so every path is
/// tested deterministically.
///
/// - Time: every event carries `now`, a `Duration` since any fixed origin (e.g. `ContinuousClock.now - start`),
///   and `setTimer(at:)` names an instant on the same line. There is one timer: setting it replaces the last.
///   A timer that fires early or late is fine; the machine checks what is due.
/// - The transport reports only about the connection it was last told to open, and nothing more about one
///   after a `close` action: the machine has already moved on.
///
/// ```
/// start ─▶ connecting ─opened─▶ open ─closed / dead link─▶ waiting ─timer─▶ connecting …
///              └─failed─▶ waiting            └─live ended─▶ finished        (fatal status or
///                                                                           maxAttempts: finished)
/// ```
public struct BCSessionStateMachine: Sendable {
    /// Something that happened to the session.
    public enum Event: Hashable, Sendable {
        /// Begin: make the first connection attempt.
        case start
        /// The transport reached the server and sent its upgrade request: a timeout from here on is the
        /// server's silence (or garbage), not the network's.
        case upgradeRequested
        /// The WebSocket opened.
        case connectionOpened
        /// A text frame arrived, stamped with the wall-clock time it was received.
        case frameReceived(String, receivedAt: Date)
        /// The connection attempt failed before the WebSocket opened.
        case connectFailed(BCTransportFailure)
        /// The open connection closed or dropped.
        case connectionClosed(BCTransportFailure)
        /// The timer set by the last `setTimer(at:)` fired.
        case timerFired
        /// The transport stopped (`true`) or resumed reading because the consumer is behind: while paused, an
        /// `ACK` may be waiting unread, so a missing one does not count.
        case readingPaused(Bool)
        /// The owner wants the session to stop.
        case cancel
    }

    /// Something for the transport to do, in the order given.
    public enum Action: Hashable, Sendable {
        /// Open a WebSocket to the configured URL; `attempt` counts from 1 (see `BCListenerEvent.reconnecting`).
        case connect(attempt: Int)
        /// Send one text frame.
        case send(String)
        /// Close the connection, or abandon the attempt in progress.
        case close(code: UInt16, reason: String)
        /// Fire `timerFired` at this instant, replacing any timer set before.
        case setTimer(at: Duration)
        /// Drop the timer.
        case cancelTimer
        /// Report an event to the listener's user.
        case emit(BCListenerEvent)
        /// The session is over: release everything. No event is handled after this.
        case finish
    }

    /// WebSocket close codes the machine sends.
    public enum CloseCode {
        /// The session ends on purpose: the live ended, or the owner cancelled.
        public static let normal: UInt16 = 1000
        /// The listener leaves a connection it no longer trusts: no `ACK`, or the attempt took too long.
        public static let goingAway: UInt16 = 1001
    }

    private enum State: Hashable, Sendable {
        case idle
        case connecting(attempt: Int, deadline: Duration, upgrading: Bool = false)
        case open(Connection)
        case waiting(attempt: Int, until: Duration)
        case finished
    }

    private struct Connection: Hashable, Sendable {
        var attempt: Int
        var openedAt: Duration
        var nextPingAt: Duration
        /// A `PING` was sent and no `ACK` has come since.
        var awaitingAck: Bool
    }

    /// The configuration the session follows.
    public let configuration: BCListenerConfiguration
    private let decoder: BCMessageDecoder
    private var state: State = .idle
    private var readingPaused = false
    private var generator: any RandomNumberGenerator & Sendable

    /// A session in its idle state, ready for its first connection.
    ///
    /// - Parameters:
    ///   - configuration: the session's key, endpoint, keepalive, timeouts and reconnect policy; its ping interval
    ///     and connect timeout must be positive, and `maxAttempts` nil or at least 1.
    ///   - generator: the source of the back-off jitter; inject a seeded or fixed one in tests.
    public init(configuration: BCListenerConfiguration,
                generator: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()) {
        precondition(configuration.pingInterval > .zero, "pingInterval must be positive")
        precondition(configuration.connectTimeout > .zero, "connectTimeout must be positive")
        precondition((configuration.maxAttempts ?? 1) >= 1, "maxAttempts must be nil or at least 1")
        self.configuration = configuration
        self.decoder = BCMessageDecoder(mode: configuration.decodingMode)
        self.generator = generator
    }

    /// True once the machine has answered `finish`: it ignores every event from then on.
    public var isFinished: Bool { state == .finished }

    /// Moves the session on by one event that happened at `now`, and returns what the transport must do.
    public mutating func handle(_ event: Event, at now: Duration) -> [Action] {
        var actions: [Action] = []
        handle(event, at: now, into: &actions)
        return actions
    }

    /// `handle(_:at:)`, appending the actions to `actions`: a transport that reuses one array spares an
    /// allocation per frame.
    public mutating func handle(_ event: Event, at now: Duration, into actions: inout [Action]) {
        if case .open(let connection) = state, case .frameReceived(let frame, let receivedAt) = event {
            read(frame, receivedAt: receivedAt, on: connection, into: &actions)
        } else {
            actions.append(contentsOf: transition(event, at: now))
        }
    }

    private mutating func transition(_ event: Event, at now: Duration) -> [Action] {
        switch (state, event) {
        case (.finished, _):
            return []

        case (_, .readingPaused(let paused)):
            return pause(paused, now: now)

        case (.idle, .start):
            return connect(attempt: 1, now: now)

        case (.connecting(let attempt, let deadline, _), .upgradeRequested):
            state = .connecting(attempt: attempt, deadline: deadline, upgrading: true)
            return []

        case (.connecting(let attempt, _, _), .connectionOpened):
            let nextPingAt = now + configuration.pingInterval
            state = .open(Connection(attempt: attempt, openedAt: now, nextPingAt: nextPingAt, awaitingAck: false))
            return [
                .emit(.connected(key: configuration.key.text)),
                .send(BCSVRCommand.subscribe(key: configuration.key).text),
                .emit(.subscribed(key: configuration.key.text)),
                .setTimer(at: nextPingAt),
            ]

        case (.connecting(let attempt, _, _), .connectFailed(let failure)),
             (.connecting(let attempt, _, _), .connectionClosed(let failure)):
            return retryOrStop(after: failure, attempt: attempt, openedAt: nil, now: now)

        case (.connecting(let attempt, let deadline, let upgrading), .timerFired):
            guard now >= deadline else { return [.setTimer(at: deadline)] }
            let failure: BCTransportFailure = upgrading
                ? .handshakeTimedOut(after: configuration.connectTimeout)
                : .timedOut(after: configuration.connectTimeout)
            return [.close(code: CloseCode.goingAway, reason: "connection timed out")]
                + retryOrStop(after: failure, attempt: attempt, openedAt: nil, now: now)

        case (.open(let connection), .frameReceived(let frame, let receivedAt)):
            var actions: [Action] = []
            read(frame, receivedAt: receivedAt, on: connection, into: &actions)
            return actions

        case (.open(let connection), .timerFired):
            return keepAlive(connection, now: now)

        case (.open(let connection), .connectionClosed(let failure)),
             (.open(let connection), .connectFailed(let failure)):
            return [.emit(.disconnected(failure))]
                + retryOrStop(after: failure, attempt: connection.attempt, openedAt: connection.openedAt, now: now)

        case (.waiting(let attempt, let until), .timerFired):
            guard now >= until else { return [.setTimer(at: until)] }
            return connect(attempt: attempt, now: now)

        case (.connecting, .cancel), (.open, .cancel):
            state = .finished
            return [.cancelTimer, .close(code: CloseCode.normal, reason: "cancelled"), .finish]

        case (.idle, .cancel), (.waiting, .cancel):
            state = .finished
            return [.cancelTimer, .finish]

        case (.idle, _), (.connecting, _), (.open, _), (.waiting, _):
            // Not possible when the transport keeps its contract (a duplicate start, a frame before the
            // socket opened, news of a connection already abandoned): nothing to do.
            return []
        }
    }

    // MARK: - Transitions

    private mutating func connect(attempt: Int, now: Duration) -> [Action] {
        let deadline = now + configuration.connectTimeout
        state = .connecting(attempt: attempt, deadline: deadline)
        return [.connect(attempt: attempt), .setTimer(at: deadline)]
    }

    /// Reading paused or resumed. A `PING` sent before or during the pause gets a whole interval from the moment
    /// reading resumes, since its `ACK` may have been waiting unread.
    private mutating func pause(_ paused: Bool, now: Duration) -> [Action] {
        guard paused != readingPaused else { return [] }
        readingPaused = paused
        guard !paused, case .open(var connection) = state, connection.awaitingAck else {
            return [.emit(.readingPaused(paused))]
        }
        connection.nextPingAt = max(connection.nextPingAt, now + configuration.pingInterval)
        state = .open(connection)
        return [.emit(.readingPaused(paused)), .setTimer(at: connection.nextPingAt)]
    }

    /// The app's liveness rule: every `pingInterval` a `PING`; if the previous one has had no `ACK` when the
    /// next is due, the link is dead (unless reading is paused: then the `ACK` may be waiting unread).
    private mutating func keepAlive(_ connection: Connection, now: Duration) -> [Action] {
        guard now >= connection.nextPingAt else { return [.setTimer(at: connection.nextPingAt)] }
        if connection.awaitingAck, readingPaused {
            var connection = connection
            connection.nextPingAt = now + configuration.pingInterval
            state = .open(connection)
            return [.setTimer(at: connection.nextPingAt)]
        }
        if connection.awaitingAck {
            return [.close(code: CloseCode.goingAway, reason: "no ACK to PING"), .emit(.disconnected(.pingTimeout))]
                + retryOrStop(after: .pingTimeout, attempt: connection.attempt, openedAt: connection.openedAt,
                              now: now)
        }
        var connection = connection
        connection.awaitingAck = true
        // Keep to the schedule (open + n × interval) unless the timer came more than an interval late.
        let next = connection.nextPingAt + configuration.pingInterval
        connection.nextPingAt = next > now ? next : now + configuration.pingInterval
        state = .open(connection)
        return [.send(BCSVRCommand.ping.text), .setTimer(at: connection.nextPingAt)]
    }

    private mutating func read(_ frame: String, receivedAt: Date, on connection: Connection,
                               into actions: inout [Action]) {
        var connection = connection
        var ended = false
        BCSVRLine.forEachLine(in: frame) { raw in
            // The usual line, a MSG of the subscribed channel, read without making the key again.
            if let json = BCSVRLine.message(in: raw, ofKey: configuration.key.text) {
                ended = decode(json, key: configuration.key.text, raw: raw, receivedAt: receivedAt, into: &actions)
                return !ended
            }
            let line = BCSVRLine(raw)
            switch line {
            case .ack:
                connection.awaitingAck = false
            case .error(let text):
                actions.append(.emit(.serverError(text)))
            case .unknown:
                actions.append(.emit(.undecodable(nil, raw: String(raw), reason: line.problem ?? "unknown line")))
            case .message(let key, let json):
                if let rejection = line.rejection(subscribedKey: configuration.key.text) {
                    actions.append(.emit(.undecodable(nil, raw: String(raw), reason: rejection.description)))
                    return true
                }
                ended = decode(json, key: key, raw: raw, receivedAt: receivedAt, into: &actions)
            }
            return !ended
        }
        if !ended { state = .open(connection) }
    }

    /// Decodes one message of the channel; true when it ended the session.
    private mutating func decode(_ json: String, key: String, raw: Substring, receivedAt: Date,
                                 into actions: inout [Action]) -> Bool {
        do {
            let response = try decoder.decode(json)
            actions.append(.emit(.message(response, raw: json, key: key, receivedAt: receivedAt)))
            if configuration.stopOnLiveEnd, response.type?.endsLive == true {
                actions.append(contentsOf: end(with: response))
                return true
            }
        } catch {
            actions.append(.emit(.undecodable(error, raw: String(raw), reason: error.description)))
            // Even a malformed (or, in strict mode, an unmodelled) t=8 ends the live.
            if configuration.stopOnLiveEnd, let t = error.t, BCType(rawValue: t)?.endsLive == true {
                actions.append(contentsOf: end(with: try? BCMessageDecoder(mode: .lenient).decode(json)))
                return true
            }
        }
        return false
    }

    private mutating func end(with response: BCResponse?) -> [Action] {
        state = .finished
        return [.emit(.ended(response)), .cancelTimer, .close(code: CloseCode.normal, reason: "the live ended"),
                .finish]
    }

    /// After a failed attempt or a lost connection: stop when retrying cannot help or attempts are exhausted,
    /// otherwise wait the back-off delay. A connection that held `stableAfter` starts the count over.
    private mutating func retryOrStop(after failure: BCTransportFailure, attempt: Int, openedAt: Duration?,
                                      now: Duration) -> [Action] {
        guard failure.isRetryable else { return stop(.rejected(failure)) }
        let wasStable = openedAt.map { now - $0 >= configuration.stableAfter } ?? false
        let nextAttempt = wasStable ? 1 : attempt + 1
        if let maxAttempts = configuration.maxAttempts, nextAttempt > maxAttempts {
            return stop(.retriesExhausted(attempts: attempt, lastFailure: failure))
        }
        // Retry n waits the n-th delay; the first attempt after a stable connection waits the first.
        let delay = configuration.backoff.delay(forRetry: max(nextAttempt - 1, 1), random: nextUnit())
        state = .waiting(attempt: nextAttempt, until: now + delay)
        return [.emit(.reconnecting(attempt: nextAttempt, delay: delay, reason: failure)), .setTimer(at: now + delay)]
    }

    private mutating func stop(_ failure: BCListenerFailure) -> [Action] {
        state = .finished
        return [.emit(.failed(failure)), .cancelTimer, .finish]
    }

    /// A random number in `0..<1` from the top 53 bits of the generator's next value, so a generator that
    /// returns a fixed value gives a known jitter.
    private mutating func nextUnit() -> Double {
        Double(generator.next() >> 11) * 0x1p-53
    }
}
