/// What happens on a client connection, in order: `.opened` then messages then one `.closed`, or a
/// single `.failed` if the connection never opened. The stream finishes after `.closed`/`.failed`.
public enum WebSocketEvent: Sendable, Hashable {
    /// TCP (and TLS) connected and the upgrade request is going out: a timeout from here on is the server's
    /// silence, not the network's. (lws may start writing before a refused connect surfaces: `.failed(.refused)`
    /// can still follow.)
    case upgrading
    /// The upgrade succeeded; messages may flow.
    case opened
    /// A whole text message, reassembled from its frames.
    case text(String)
    /// A whole binary message, reassembled from its frames.
    case binary([UInt8])
    /// A message refused (too big, or text that is not UTF-8); `.closed` follows with 1009 or 1007.
    case refused(RefusedMessage)
    /// The open connection ended.
    case closed(WebSocketCloseReason)
    /// The connection never opened.
    case failed(WebSocketConnectFailure)
}
