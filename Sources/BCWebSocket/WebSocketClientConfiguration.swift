/// How one client connection attempt behaves. Every property has a default that suits a long-lived
/// subscription to a public `wss` endpoint.
public struct WebSocketClientConfiguration: Sendable, Hashable {
    /// How `wss` certificates are checked.
    public struct TLS: Sendable, Hashable {
        /// A PEM file of CA certificates to trust instead of the system store; `nil` uses the system store.
        public var caFile: String?
        /// Accept any certificate and host name. Only for a test server you control.
        public var insecure: Bool

        /// Trust `caFile`'s authorities if given, else the system's; skip verification only if `insecure`.
        public init(caFile: String? = nil, insecure: Bool = false) {
            self.caFile = caFile
            self.insecure = insecure
        }

        /// Verify against the system trust store (the default).
        public static let system = TLS()
        /// Verify against the CAs in `caFile` only.
        public static func trusting(caFile: String) -> TLS { TLS(caFile: caFile) }
        /// Skip verification entirely.
        public static let insecure = TLS(insecure: true)
    }

    /// Time allowed for DNS, TCP connect, TLS handshake and the HTTP upgrade together (at most 120 s).
    public var connectTimeout: Duration
    /// Certificate verification for `wss` URLs; ignored for `ws`.
    public var tls: TLS
    /// Offer permessage-deflate (RFC 7692); used only if the server accepts it.
    public var permessageDeflate: Bool
    /// Largest reassembled message accepted; a larger one closes the connection with 1009.
    public var maxMessageSize: Int
    /// Silence (no pong) after which the client sends a WebSocket ping; whole seconds, at least 1.
    public var pingInterval: Duration
    /// Silence (no pong) after which the connection is dropped; whole seconds, more than `pingInterval`.
    public var hangupAfterSilence: Duration
    /// `Origin` header to send with the upgrade request; `nil` sends none.
    public var origin: String?
    /// `Sec-WebSocket-Protocol` to ask for; `nil` asks for none.
    public var subprotocol: String?

    /// A configuration with every setting at the default its property describes: 10 s to connect, the system's
    /// trust, permessage-deflate offered, messages up to 1 MiB, a ping after 30 s of silence, a drop after 60 s.
    public init(
        connectTimeout: Duration = .seconds(10),
        tls: TLS = .system,
        permessageDeflate: Bool = true,
        maxMessageSize: Int = 1 << 20,
        pingInterval: Duration = .seconds(30),
        hangupAfterSilence: Duration = .seconds(60),
        origin: String? = nil,
        subprotocol: String? = nil
    ) {
        self.connectTimeout = connectTimeout
        self.tls = tls
        self.permessageDeflate = permessageDeflate
        self.maxMessageSize = maxMessageSize
        self.pingInterval = pingInterval
        self.hangupAfterSilence = hangupAfterSilence
        self.origin = origin
        self.subprotocol = subprotocol
    }

    /// The ping and hangup thresholds in whole seconds (as lws' retry policy took them once), hangup forced above
    /// ping: a hangup no later than the ping would drop every link before its pong could come.
    var validitySeconds: (ping: UInt16, hangup: UInt16) {
        let ping = Self.wholeSeconds(pingInterval, minimum: 1, maximum: 60_000)
        let hangup = max(Self.wholeSeconds(hangupAfterSilence, minimum: 2, maximum: 65_000), ping + 1)
        return (ping, hangup)
    }

    static func wholeSeconds(_ duration: Duration, minimum: UInt16, maximum: UInt16) -> UInt16 {
        let (seconds, attoseconds) = duration.components
        let rounded = seconds + (attoseconds > 0 ? 1 : 0)
        return UInt16(clamping: min(max(rounded, Int64(minimum)), Int64(maximum)))
    }
}
