/// What happens on a `WebSocketServer`, for all its clients in one stream.
public enum WebSocketServerEvent: Sendable, Hashable {
    /// A client completed the upgrade.
    case connected(ClientID)
    /// A whole text message from a client, reassembled from its frames.
    case text(ClientID, String)
    /// A whole binary message from a client.
    case binary(ClientID, [UInt8])
    /// The client's connection ended (either side closed, or the link dropped).
    case disconnected(ClientID)
}
