/// Where and how a `WebSocketServer` listens, and what it tolerates from a client.
public struct WebSocketServerConfiguration: Sendable, Hashable {
    /// A certificate and its key, both PEM files, for serving `wss://`.
    public struct TLS: Sendable, Hashable {
        /// The server's certificate chain (PEM), leaf first.
        public var certificateFile: String
        /// The certificate's private key (PEM, unencrypted).
        public var privateKeyFile: String

        /// Serve the certificate chain in `certificateFile` with the key in `privateKeyFile`.
        public init(certificateFile: String, privateKeyFile: String) {
            self.certificateFile = certificateFile
            self.privateKeyFile = privateKeyFile
        }
    }

    /// Numeric address to listen on; the loopback address unless told otherwise.
    public var host: String
    /// TCP port to listen on; 0 picks a free one (read it back from `WebSocketServer.port`).
    public var port: Int
    /// Accept permessage-deflate when a client offers it.
    public var permessageDeflate: Bool
    /// Largest reassembled message accepted from a client; a larger one closes it with 1009.
    public var maxMessageSize: Int
    /// Bytes queued for one client past which `send` reports it full (`WebSocketServer.send` returns the
    /// queued size) and `.drained` follows once it is back under `sendQueueLowWater`.
    public var sendQueueHighWater: Int
    /// See `sendQueueHighWater`.
    public var sendQueueLowWater: Int
    /// Bytes queued for one client past which it is closed at once (1008, "not reading"), its queue freed:
    /// the server's memory stays bounded whatever a client does.
    public var maxQueuedBytes: Int
    /// How long a connection may take to complete its WebSocket upgrade (whole seconds, at least 1). A client
    /// that trickles its request, or never sends one, is dropped then and reported as `.abandoned`.
    public var handshakeTimeout: Duration
    /// Serve `wss://` with this certificate; `nil` serves plain `ws://`.
    public var tls: TLS?

    /// A plain `ws://` server on a free loopback port, with every other setting at the default its property describes.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        permessageDeflate: Bool = true,
        maxMessageSize: Int = 1 << 20,
        sendQueueHighWater: Int = 256 * 1024,
        sendQueueLowWater: Int = 64 * 1024,
        maxQueuedBytes: Int = 8 << 20,
        handshakeTimeout: Duration = .seconds(10),
        tls: TLS? = nil
    ) {
        self.host = host
        self.port = port
        self.permessageDeflate = permessageDeflate
        self.maxMessageSize = maxMessageSize
        self.sendQueueHighWater = sendQueueHighWater
        self.sendQueueLowWater = sendQueueLowWater
        self.maxQueuedBytes = maxQueuedBytes
        self.handshakeTimeout = handshakeTimeout
        self.tls = tls
    }
}
