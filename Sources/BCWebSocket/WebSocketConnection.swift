/// One client connection attempt and, if it opens, the connection, with its events as a stream.
///
/// Read `events` from one consumer. Ending that consumer (cancelling its task or dropping the
/// iterator) closes the connection. `send` and `close` are the `link`'s.
public final class WebSocketConnection: Sendable {
    /// Sends and closes.
    public let link: WebSocketLink
    /// `.opened`, messages, then `.closed`; or just `.failed`. Finishes after the last event.
    public let events: AsyncStream<WebSocketEvent>

    init(link: WebSocketLink, events: AsyncStream<WebSocketEvent>) {
        self.link = link
        self.events = events
    }

    /// Unique within the process.
    public var id: UInt64 { link.id }
    /// The URL this attempt connects to.
    public var url: WebSocketURL { link.url }

    /// Sends a text message (one frame); see `WebSocketLink.send(_:)`.
    public func send(_ text: String) { link.send(text) }

    /// Sends a binary message (one frame); see `WebSocketLink.send(_:)`.
    public func send(_ bytes: [UInt8]) { link.send(bytes) }

    /// Closes after anything already queued; see `WebSocketLink.close(code:reason:)`.
    public func close(code: UInt16 = 1000, reason: String = "") { link.close(code: code, reason: reason) }
}
