/// Why an open connection ended: the close code and text, who ended it, and the cause behind it.
public struct WebSocketCloseReason: Sendable, Hashable, CustomStringConvertible {
    /// What led to the close, in terms a caller can decide on (reconnect or not, report or not).
    public enum Cause: Sendable, Hashable {
        /// `close(code:reason:)` was called, or the consumer of `events` went away.
        case requested
        /// The peer sent a close frame.
        case peerClosed
        /// A message grew past `maxMessageSize`; we closed with 1009.
        case messageTooBig(limit: Int)
        /// A text message was not valid UTF-8; we closed with 1007.
        case invalidUTF8
        /// The peer broke the WebSocket protocol (a masked frame, a bad opcode, data that does not inflate...);
        /// we closed with 1002 or 1007.
        case protocolViolation(String)
        /// No pong came back within the hangup window; lws dropped the link.
        case silence(after: Duration)
        /// The TCP connection ended without a close frame (reset, EOF, write error).
        case connectionLost
        /// The loop or server was shut down.
        case loopStopped
    }

    /// The close code: the one sent or received, or 1006 when no close frame was exchanged.
    public var code: UInt16
    /// The close reason text (may be empty).
    public var text: String
    /// `true` when this side decided to close (including message too big and silence).
    public var initiatedLocally: Bool
    /// Why the connection closed.
    public var cause: Cause

    /// A close with `code` and `text`, by this side if `initiatedLocally`, for `cause`.
    public init(code: UInt16, text: String, initiatedLocally: Bool, cause: Cause) {
        self.code = code
        self.text = text
        self.initiatedLocally = initiatedLocally
        self.cause = cause
    }

    public var description: String {
        let who = initiatedLocally ? "closed by us" : "closed by the peer or network"
        let detail: String
        switch cause {
        case .requested: detail = "close requested"
        case .peerClosed: detail = "peer sent close"
        case .messageTooBig(let limit): detail = "message larger than \(limit) bytes"
        case .invalidUTF8: detail = "text message was not valid UTF-8"
        case .silence(let after): detail = "no pong for \(after)"
        case .protocolViolation(let what): detail = "the peer broke the WebSocket protocol: \(what)"
        case .connectionLost: detail = "connection lost without a close frame"
        case .loopStopped: detail = "loop stopped"
        }
        let shownText = text.isEmpty ? "" : " \"\(text)\""
        return "\(code)\(shownText): \(detail) (\(who))"
    }

    /// 1006: never sent on the wire, reported when the link ended without a close frame.
    static let abnormalClosure: UInt16 = 1006
}
