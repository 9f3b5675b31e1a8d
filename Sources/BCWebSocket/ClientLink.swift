/// The WebSocket state of one client connection that reads and writes its own frames over an lws raw socket: the
/// handshake until the answer is read, then the frame reader, the inflater, the control frames owed to the peer
/// and the close handshake. Service thread only, like the `ServiceSession` that holds it.
final class ClientLink {
    /// `wss://`: TLS over the raw socket; everything below goes through it.
    let tls: ClientTLS?
    /// The upgrade request, until it is written.
    var request: [UInt8]?
    /// The handshake, until its answer is read; then `reader` takes over.
    var handshake: ClientHandshake?
    var reader: ClientFrameReader?
    /// Made when the first compressed message arrives.
    var inflater: MessageInflater?
    /// Pongs owed, the keepalive ping and the close handshake.
    var machine = WebSocketLinkStateMachine()
    /// What was read but not yet handed over when the consumer's window paused reading: read first on resume.
    /// At most one read's worth (the rest waits in the socket).
    var heldInput: [UInt8] = []

    /// The upgrade is made once the connection (and its TLS) is up: `begin(request:handshake:)`.
    init(tls: ClientTLS?) {
        self.tls = tls
    }

    func begin(request: [UInt8], handshake: ClientHandshake) {
        self.request = request
        self.handshake = handshake
    }
}
