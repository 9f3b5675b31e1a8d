/// One client connection attempt and, if it opens, the connection.
///
/// Read `events` from one consumer. Ending that consumer (cancelling its task or dropping the
/// iterator) closes the connection. `send` and `close` may be called from anywhere; they are queued
/// for the loop's thread, so they never block.
public final class WebSocketConnection: Sendable {
    /// Unique within the process.
    public let id: UInt64
    /// The URL this attempt connects to.
    public let url: WebSocketURL
    /// `.opened`, messages, then `.closed`; or just `.failed`. Finishes after the last event.
    public let events: AsyncStream<WebSocketEvent>
    /// Keeps the loop (and its thread) alive while a connection handle exists.
    private let loop: WebSocketLoop

    init(id: UInt64, url: WebSocketURL, events: AsyncStream<WebSocketEvent>, loop: WebSocketLoop) {
        self.id = id
        self.url = url
        self.events = events
        self.loop = loop
    }

    /// Sends a text message (one frame). Before `.opened` it is queued and sent on open; after a
    /// close request it is dropped.
    public func send(_ text: String) {
        loop.core.submit(.send(id: id, bytes: Array(text.utf8), binary: false, fragments: 1))
    }

    /// Sends a binary message (one frame), queued like `send(_:)` for text.
    public func send(_ bytes: [UInt8]) {
        loop.core.submit(.send(id: id, bytes: bytes, binary: true, fragments: 1))
    }

    /// Sends a close frame after anything already queued, then `.closed` follows once the peer
    /// answers (or lws gives up waiting). Before the connection opened, abandons the attempt
    /// (`.failed(.cancelled)`).
    /// - Parameters:
    ///   - code: an RFC 6455 code an endpoint may send (1000–1003, 1007–1014, 3000–4999); others become 1000.
    ///   - reason: at most 123 UTF-8 bytes are sent.
    public func close(code: UInt16 = 1000, reason: String = "") {
        loop.core.submit(.close(id: id, code: code, reason: reason))
    }
}
