/// The WebSocket state of one connection that reads and writes its own frames over an lws raw socket, in either
/// role: the upgrade until it is agreed, then the frame reader, the inflater (and the server's deflater), the
/// control frames owed to the peer and the close handshake. Service thread only, like the `ServiceSession` that
/// holds it.
final class FrameLink {
    /// Where the opening handshake is.
    enum Upgrade {
        /// Client: our request is on its way; the server's answer is read here.
        case awaitingAnswer(ClientHandshake)
        /// Server: the client's request is read here.
        case awaitingRequest(ServerHandshake)
        /// Server: the request was refused; the socket closes once the answer is written, and nothing more is read.
        case refused
        /// Agreed: frames flow (`reader`).
        case done
    }

    /// Which side this is: a client masks what it writes, a server requires masks on what it reads.
    let role: FrameReader.Role
    /// `wss://`: TLS over the raw socket; everything below goes through it.
    let tls: ClientTLS?
    var upgrade: Upgrade
    /// Handshake bytes to write before anything else (the client's request, the server's answer), until written.
    var handshakeOut: [UInt8]?
    var reader: FrameReader?
    /// Made when the first compressed message arrives.
    var inflater: MessageInflater?
    /// Server, permessage-deflate agreed: what it sends is deflated.
    var deflater: MessageDeflater?
    /// Pongs owed, the keepalive ping and the close handshake.
    var machine = WebSocketLinkStateMachine()
    /// What was read but not yet handed over when the consumer's window paused reading: read first on resume.
    /// At most one read's worth (the rest waits in the socket).
    var heldInput: [UInt8] = []

    /// A client's link: the upgrade is made once the connection (and its TLS) is up (`begin(request:handshake:)`).
    init(tls: ClientTLS?) {
        role = .client
        self.tls = tls
        upgrade = .done
    }

    /// An accepted connection's link: its request is read first.
    init(tls: ClientTLS?, server handshake: ServerHandshake) {
        role = .server
        self.tls = tls
        upgrade = .awaitingRequest(handshake)
    }

    func begin(request: [UInt8], handshake: ClientHandshake) {
        handshakeOut = request
        upgrade = .awaitingAnswer(handshake)
    }
}
