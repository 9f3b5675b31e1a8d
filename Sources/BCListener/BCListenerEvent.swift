#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BCMessages

/// What a listener reports while it follows a channel, in order. Every session ends with `.ended` (the live
/// ended) or `.failed` (it gave up), unless its owner cancelled it.
public enum BCListenerEvent: Hashable, Sendable, CustomStringConvertible {
    /// The WebSocket to the server is open (each time, reconnections included).
    case connected(key: String)
    /// `SUB` was sent for the channel. bcsvr does not confirm a subscription, so this is the point from which
    /// the channel's messages arrive.
    case subscribed(key: String)
    /// A message of the channel, decoded. `raw` is its JSON exactly as received (what a fixture holds).
    case message(BCResponse, raw: String, key: String, receivedAt: Date)
    /// A line the listener received but could not use, reported instead of dropped: a message that does not
    /// decode (with the decoder's error), a `MSG` of another channel or without a JSON object, or an unknown
    /// command. `raw` is the whole line as received; `reason` says what is wrong. The session goes on.
    case undecodable(BCDecodingError?, raw: String, reason: String)
    /// The server sent `ERR`, with its text (often empty). The session goes on.
    case serverError(String)
    /// A received frame could not be written to the recording (disk full, file removed); it was still
    /// decoded and reported. The session goes on.
    case recordingFailed(String)
    /// Reading the socket paused (`true`) because the consumer holds `maxHeldMessages` or `maxHeldBytes` not yet
    /// taken, so TCP pushes back on the server; or resumed (`false`) once it caught up. Lag, not loss: nothing is
    /// dropped, and the keepalive does not count the wait against the server.
    case readingPaused(Bool)
    /// The open connection was lost, or closed by the listener because the link was dead.
    case disconnected(BCTransportFailure)
    /// Connection attempt `attempt` will be made after `delay`, because of `reason`. Attempts are counted
    /// from 1 again after a connection that held `stableAfter`.
    case reconnecting(attempt: Int, delay: Duration, reason: BCTransportFailure)
    /// The live ended (t=8 or t=123) and the listener stopped: the message that said so, or nil when it did not
    /// decode (it was reported by `.undecodable` just before).
    case ended(BCResponse?)
    /// The listener gave up; nothing follows.
    case failed(BCListenerFailure)

    /// The event for a person, naming the server:
    /// "cannot reach online.mirrativ.com: connection timed out after 10 s; retrying in 3.2 s (attempt 2)".
    public func description(host: String) -> String {
        switch self {
        case .connected:
            return "connected to \(host)"
        case .subscribed(let key):
            return "subscribed to channel \(key)"
        case .message(let response, let raw, _, _):
            return "t=\(response.t) \(response.kind): \(raw.excerpt)"
        case .undecodable(_, _, let reason):
            return "skipped a line: \(reason)"
        case .serverError(let text):
            return text.isEmpty ? "the server sent ERR without details" : "the server sent ERR: \(text.excerpt)"
        case .recordingFailed(let problem):
            return "could not record a frame: \(problem)"
        case .readingPaused(let paused):
            return paused ? "reading paused: the consumer is behind; the server waits"
                : "reading resumed: the consumer caught up"
        case .disconnected(let reason):
            return "lost the connection to \(host): \(reason)"
        case .reconnecting(let attempt, let delay, let reason):
            switch reason {
            case .closed, .pingTimeout:
                return "connection to \(host) lost: \(reason); reconnecting in \(delay.spoken) (attempt \(attempt))"
            default:
                return "cannot reach \(host): \(reason); retrying in \(delay.spoken) (attempt \(attempt))"
            }
        case .ended(let response):
            let cause = response.map { "t=\($0.t) \($0.kind)" } ?? "its message did not decode"
            return "the live ended (\(cause)); stopped listening"
        case .failed(let failure):
            return failure.description(host: host)
        }
    }

    public var description: String { description(host: "the server") }
}
