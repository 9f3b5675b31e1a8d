/// The sending side of one client connection attempt: what `send` and `close` need, without the
/// events (which go to a `WebSocketConnection`'s stream or to a handler).
///
/// `send` and `close` may be called from anywhere; they are queued for the loop's thread, so they
/// never block.
public struct WebSocketLink: Sendable {
    /// Unique within the process.
    public let id: UInt64
    /// The URL this attempt connects to.
    public let url: WebSocketURL
    /// Where `send` and `close` go.
    let core: ServiceCore
    /// Keeps the loop (and its thread) alive while a link exists; nil in the link handed to an event handler
    /// (`WebSocketLoop.connect(to:configuration:window:onEvent:)`), which the connection itself holds: a strong
    /// one there would keep the loop alive for as long as the connection, so dropping the loop would not stop it.
    let loop: WebSocketLoop?

    /// Sends a text message (one frame). Before `.opened` it is queued and sent on open; after a
    /// close request it is dropped.
    public func send(_ text: String) {
        core.submit(.send(id: id, bytes: Array(text.utf8), binary: false, fragments: 1))
    }

    /// Sends a binary message (one frame), queued like `send(_:)` for text.
    public func send(_ bytes: [UInt8]) {
        core.submit(.send(id: id, bytes: bytes, binary: true, fragments: 1))
    }

    /// Sends a close frame after anything already queued, then `.closed` follows once the peer
    /// answers (or lws gives up waiting). Before the connection opened, abandons the attempt
    /// (`.failed(.cancelled)`).
    /// - Parameters:
    ///   - code: an RFC 6455 code an endpoint may send (1000–1003, 1007–1014, 3000–4999); others become 1000.
    ///   - reason: at most 123 UTF-8 bytes are sent.
    public func close(code: UInt16 = 1000, reason: String = "") {
        core.submit(.close(id: id, code: code, reason: reason))
    }
}
