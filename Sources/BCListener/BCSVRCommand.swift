/// A command a bcsvr client sends, one text frame each (protocol.md). There is no UNSUB: a client leaves by
/// closing the socket.
public enum BCSVRCommand: Hashable, Sendable, CustomStringConvertible {
    /// `SUB\t<key>`: subscribe to a channel; sent right after the WebSocket opens, and after every reconnect.
    /// The key is a `ChannelKey`, checked when it was made: no text from outside reaches this line unchecked.
    case subscribe(key: ChannelKey)
    /// `PING`: the application keepalive; the server answers `ACK`.
    case ping

    /// The frame's text, as sent (no trailing newline: the server needs none).
    public var text: String {
        switch self {
        case .subscribe(let key): "SUB\t\(key.text)"
        case .ping: "PING"
        }
    }

    public var description: String { text.excerpt }
}
