/// Where and how a `WebSocketServer` listens.
public struct WebSocketServerConfiguration: Sendable, Hashable {
    /// Numeric address to listen on; the loopback address unless told otherwise.
    public var host: String
    /// TCP port to listen on; 0 picks a free one (read it back from `WebSocketServer.port`).
    public var port: Int
    /// Accept permessage-deflate when a client offers it.
    public var permessageDeflate: Bool
    /// Largest reassembled message accepted from a client; a larger one closes it with 1009.
    public var maxMessageSize: Int

    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        permessageDeflate: Bool = true,
        maxMessageSize: Int = 1 << 20
    ) {
        self.host = host
        self.port = port
        self.permessageDeflate = permessageDeflate
        self.maxMessageSize = maxMessageSize
    }
}
