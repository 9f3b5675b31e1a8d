/// What happens on a `WebSocketServer`, for all its clients in one stream.
public enum WebSocketServerEvent: Sendable, Hashable {
    /// A client completed the upgrade.
    case connected(ClientID)
    /// A whole text message from a client, reassembled from its frames.
    case text(ClientID, String)
    /// A whole binary message from a client.
    case binary(ClientID, [UInt8])
    /// A message from a client refused (too big, or text that is not UTF-8); `.disconnected` follows.
    case refused(ClientID, RefusedMessage)
    /// The client's send queue, which had grown past `sendQueueHighWater`, is back under
    /// `sendQueueLowWater`: it reads again, more may be sent.
    case drained(ClientID)
    /// The client's connection ended (either side closed, or the link dropped).
    case disconnected(ClientID)
    /// A connection from `peer` ("address:port") ended before it completed its WebSocket upgrade, `after` it
    /// was accepted: it hung up, did not speak HTTP, or was too slow (`handshakeTimeout`). No `ClientID` was
    /// given to it.
    case abandoned(peer: String, after: Duration)
}
