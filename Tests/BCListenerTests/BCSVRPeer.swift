import BCListener
import BCMessages
import BCWebSocket
import Foundation
import Synchronization
import TestSupport

/// One message the bcsvr peer sent, as it reported it just before sending:
/// `sent n=2 fragments=3 text="MSG\t118f91f:UdoBre1M\t{…}"`.
struct SentFrame: Hashable {
    /// Which upgrade request (connection) of the peer, from 1.
    var n: Int
    /// How many WebSocket frames the message was split into.
    var fragments: Int
    /// The message's exact text.
    var text: String

    init?(report line: String) {
        guard line.hasPrefix("sent "), let textStart = line.range(of: " text=") else { return nil }
        var fields: [String: Int] = [:]
        for field in line[line.index(line.startIndex, offsetBy: 5)..<textStart.lowerBound].split(separator: " ") {
            let pair = field.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = Int(pair[1]) }
        }
        guard let n = fields["n"], let fragments = fields["fragments"],
              let text = try? JSONDecoder().decode(String.self, from: Data(line[textStart.upperBound...].utf8))
        else { return nil }
        self.n = n
        self.fragments = fragments
        self.text = text
    }

    /// The JSON of every `MSG` line of channel `key` in this message (a message may hold several lines),
    /// read without the listener's own parser.
    func messageBodies(key: String) -> [String] {
        // On scalars: "\r\n" is one Character, which a split on "\n" would not cut.
        text.unicodeScalars.split(separator: "\n").compactMap { scalars in
            let line = String(scalars.last == "\r" ? scalars.dropLast() : scalars)
            let prefix = "MSG\t\(key)\t"
            return line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : nil
        }
    }
}

extension PeerProcess {
    /// Every message the peer has reported sending so far, in order.
    var sentFrames: [SentFrame] { transcript.compactMap(SentFrame.init(report:)) }

    /// The JSON of every `MSG` the peer sent on channel `key`, in order, on any connection.
    func sentMessages(key: String = Sample.key) -> [String] {
        sentFrames.flatMap { $0.messageBodies(key: key) }
    }
}

/// A listener event and when the test received it.
struct Heard: Sendable {
    var event: BCListenerEvent
    var at: ContinuousClock.Instant
}

extension BCListenerEvent {
    /// The event in a few words, so a whole session compares as one readable list.
    var outline: String {
        switch self {
        case .connected: "connected"
        case .subscribed: "subscribed"
        case .message(let response, _, _, _): "message t=\(response.t)"
        case .undecodable(let error, _, _): error == nil ? "undecodable line" : "undecodable message"
        case .serverError(let text): "ERR \(text)"
        case .recordingFailed(let problem): "recording failed: \(problem)"
        case .readingPaused(let paused): paused ? "reading paused" : "reading resumed"
        case .disconnected(let reason): "disconnected: \(reason)"
        case .reconnecting(let attempt, _, let reason): "reconnecting (attempt \(attempt)): \(reason)"
        case .ended(let response): "ended t=\(response.map { String($0.t) } ?? "?")"
        case .failed(let failure): "failed: \(failure)"
        }
    }
}

extension Array where Element == Heard {
    var outline: [String] { map(\.event.outline) }

    /// The `.message` events: what was decoded, the raw JSON and the channel key.
    var messages: [(response: BCResponse, raw: String, key: String)] {
        compactMap {
            if case .message(let response, let raw, let key, _) = $0.event { (response, raw, key) } else { nil }
        }
    }

    /// When the first event matching `matches` was heard.
    func time(of matches: (BCListenerEvent) -> Bool) -> ContinuousClock.Instant? {
        first { matches($0.event) }?.at
    }
}

/// Listeners for one test, on a loop of their own, pointed at the peer's port; `tearDown()` stops them all.
final class ListenerHarness: Sendable {
    let port: Int
    let loop = WebSocketLoop(name: "BCListenerTests.integration")
    private let inboxes = Mutex<[Inbox<Heard>]>([])
    private let runs = Mutex<[Task<Void, Never>]>([])

    init(port: Int) { self.port = port }

    /// Short intervals keep the suite fast: PING every second, reconnects after about 0.1 s, and a bound on the
    /// attempts so that no failure leaves a listener retrying.
    func configuration(key: String = Sample.key, scheme: String = "ws", host: String = "127.0.0.1")
        -> BCListenerConfiguration {
        var configuration = BCListenerConfiguration(key: try! ChannelKey(key), url: URL(string: "\(scheme)://\(host):\(port)/")!)
        configuration.pingInterval = .seconds(1)
        configuration.connectTimeout = .seconds(3)
        configuration.backoff = .init(initialDelay: .milliseconds(100), multiplier: 2, maximumDelay: .seconds(1),
                                      jitter: 0.2)
        configuration.maxAttempts = 4
        return configuration
    }

    /// Starts following a channel; the returned inbox's feeding task is the listener's consumer.
    func listen(_ configuration: BCListenerConfiguration, webSocket: WebSocketClientConfiguration = .init(),
                recorder: FrameRecorder? = nil) -> Inbox<Heard> {
        let listener = ChannelListener(configuration: configuration, webSocket: webSocket, recorder: recorder,
                                       loop: loop)
        let inbox = Inbox(listener) { Heard(event: $0, at: .now) }
        inboxes.withLock { $0.append(inbox) }
        return inbox
    }

    /// The same listener run where its frames arrive (`run(handler:)`): each event is pushed into the inbox by
    /// the handler, and `handler` (when given) decides whether the session goes on.
    func listenWhereFramesArrive(_ configuration: BCListenerConfiguration,
                                 handler: (@Sendable (BCListenerEvent) -> Bool)? = nil) -> Inbox<Heard> {
        let listener = ChannelListener(configuration: configuration, loop: loop)
        let inbox = Inbox<Heard>()
        let task = Task {
            await listener.run { event in
                inbox.push(Heard(event: event, at: .now))
                return handler?(event) ?? true
            }
            inbox.finish()
        }
        runs.withLock { $0.append(task) }
        return inbox
    }

    /// Cancels every listener's consumer and shuts the loop down (closing whatever is still open).
    func tearDown() async {
        for inbox in inboxes.withLock({ $0 }) { inbox.cancel() }
        for run in runs.withLock({ $0 }) {
            run.cancel()
            await run.value
        }
        await loop.shutdown()
    }
}

/// Runs `body` against `Tests/Peers/bcsvr_peer.py SCENARIO ARGS`, then stops the listeners and the peer, whatever
/// happens.
func withBCSVRPeer(_ scenario: String, _ arguments: [String] = [],
                   _ body: (PeerProcess, ListenerHarness) async throws -> Void) async throws {
    try await withPeer(scenario, arguments, script: .bcsvr) { peer, port in
        let harness = ListenerHarness(port: port)
        do {
            try await body(peer, harness)
        } catch {
            await harness.tearDown()
            throw error
        }
        await harness.tearDown()
    }
}
