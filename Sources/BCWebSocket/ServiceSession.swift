import CLibWebSockets

/// One WebSocket (client attempt or accepted server client) as the service thread sees it.
///
/// Not Sendable and never shared: created, read and mutated only on the service thread (inside lws
/// callbacks or the service loop), and referenced only from `ServiceCore.sessions`.
final class ServiceSession {
    enum Stage {
        /// Waiting for DNS (client only).
        case resolving
        /// `lws_client_connect_via_info` was called; TCP/TLS in progress.
        case connecting
        /// Client: the upgrade request was being written (TCP and TLS succeeded). Server: the connection is accepted
        /// and its upgrade request not read yet.
        case upgrading
        /// ESTABLISHED: messages flow.
        case open
    }

    /// What the client side needs to connect and to report.
    struct ClientSide {
        let url: WebSocketURL
        let configuration: WebSocketClientConfiguration
        /// Called on the service thread with each event; `.closed` or `.failed` is the last.
        let deliver: @Sendable (WebSocketEvent) -> Void
        /// Flow control towards the consumer, if it asked for any.
        let window: ReceiveWindow?
        var addresses: [String] = []
        var nextAddress = 0
    }

    /// One frame waiting for WRITEABLE.
    struct Frame {
        let bytes: [UInt8]
        /// The first byte of the frame's header (RFC 6455 5.2): FIN and the opcode (RSV1 is added when the frame is
        /// deflated).
        let head: UInt8
    }

    let id: UInt64
    var client: ClientSide?
    var wsi: OpaquePointer?
    var stage: Stage
    var assembler: MessageAssembler
    /// The connection's own WebSocket state (both roles read and write their frames themselves over a raw socket):
    /// a client's from the connect, a server's client's from the accept.
    var link: FrameLink?
    /// Server: the client's address ("address:port"), for `.abandoned`.
    var peer = ""
    /// FIFO of frames; `outgoingHead` avoids O(n) removal from the front.
    private var outgoing: [Frame] = []
    private var outgoingHead = 0
    /// Bytes in `outgoing`.
    private(set) var queuedBytes = 0
    /// Close frame to send once `outgoing` is drained (`ServiceCore.requestUrgentClose` may have emptied it).
    var closeRequest: (code: UInt16, text: String, cause: WebSocketCloseReason.Cause)?
    /// This side closes at once: the peer broke a rule (a message too big, text not UTF-8) or does not read.
    /// Reading stopped and the close deadline runs. Set together with `closeRequest`.
    var closeUrgently = false
    /// Reading paused by the consumer's `ReceiveWindow` (not a fault): writes go on, and the WebSocket
    /// keepalive is held off, since the peer's pongs wait unread.
    var readingPaused = false
    /// What the consumer's `ReceiveWindow` calls to resume reading (client), made once.
    var resumeReading: (@Sendable () -> Void)?
    /// Set when this side decided the close; reported at CLOSED.
    var localClose: WebSocketCloseReason?
    /// The peer's close frame, if one came.
    var peerClose: (code: UInt16, text: String)?
    /// Reading suspended (server fault injection): no rx, so no pongs either.
    var stalled = false
    /// Last time the link was seen alive: open, a pong, or reading resumed after a pause.
    var lastValidity: ContinuousClock.Instant
    /// When the session was created (the connect attempt began).
    let startedAt: ContinuousClock.Instant
    /// The session's one timer: the connect or handshake deadline, then the close deadline.
    var timer: UnsafeMutablePointer<bc_lws_timer_t>?
    /// The last TCP-level failure, reported if no address is left.
    var lastFailure: WebSocketConnectFailure?
    var finished = false
    /// Inside `lws_client_connect_via_info`, which may report an error before it returns.
    var inConnectCall = false
    var errorDuringConnectCall = false

    init(id: UInt64, client: ClientSide?, stage: Stage, maxMessageSize: Int) {
        self.id = id
        self.client = client
        self.stage = stage
        self.assembler = MessageAssembler(limit: maxMessageSize)
        self.lastValidity = .now
        self.startedAt = .now
    }

    var isOpen: Bool { stage == .open }
    var hasOutgoing: Bool { outgoingHead < outgoing.count }

    func enqueue(_ bytes: [UInt8], binary: Bool, fragments: Int) {
        if fragments <= 1 || bytes.count <= 1 {
            outgoing.append(Self.wholeFrame(of: bytes, binary: binary))  // no array of one frame per message
        } else {
            outgoing.append(contentsOf: Self.frames(of: bytes, binary: binary, fragments: fragments))
        }
        queuedBytes += bytes.count
    }

    /// The frame of an unfragmented message: its bytes as they are, not copied.
    static func wholeFrame(of bytes: [UInt8], binary: Bool) -> Frame {
        Frame(bytes: bytes, head: binary ? 0x82 : 0x81)
    }

    /// Takes the frames at the head of the queue whose payloads together stay within `limit` bytes (always at
    /// least one, whatever its size; none when the queue is empty) and hands them to `body`, in order.
    func dequeueFrames<Result>(upTo limit: Int, _ body: (ArraySlice<Frame>) -> Result) -> Result {
        var end = outgoingHead
        var payload = 0
        while end < outgoing.count, end == outgoingHead || payload + outgoing[end].bytes.count <= limit {
            payload += outgoing[end].bytes.count
            end += 1
        }
        let result = body(outgoing[outgoingHead..<end])
        queuedBytes -= payload
        advanceHead(to: end)
        return result
    }

    /// Moves the head of the queue to `end`, releasing the frames before it: all at once when the queue is
    /// empty, else once they are half the array or more (each frame moved at most once per release, so O(1) a
    /// frame). A queue that never empties, a subscriber read continuously at full speed, used to keep every
    /// frame it had ever sent (700 MB in a few seconds of `replay --loop --interval 0`).
    private func advanceHead(to end: Int) {
        outgoingHead = end
        if outgoingHead == outgoing.count {
            outgoing.removeAll(keepingCapacity: true)
            outgoingHead = 0
        } else if outgoingHead >= 64, outgoingHead * 2 >= outgoing.count {
            outgoing.removeSubrange(..<outgoingHead)
            outgoingHead = 0
        }
    }

    /// Frames the queue still holds, sent or not (for tests: sent ones must be released).
    var heldFrames: Int { outgoing.count }

    /// Forgets everything queued; returns how many bytes that was.
    func dropOutgoing() -> Int {
        let dropped = queuedBytes
        outgoing = []
        outgoingHead = 0
        queuedBytes = 0
        return dropped
    }

    /// Splits `bytes` byte for byte into `fragments` frames (fewer if there are fewer bytes): the
    /// first carries the opcode, the rest are continuations, only the last has FIN.
    static func frames(of bytes: [UInt8], binary: Bool, fragments: Int) -> [Frame] {
        let opcode: UInt8 = binary ? 0x2 : 0x1
        if fragments <= 1 || bytes.count <= 1 { return [wholeFrame(of: bytes, binary: binary)] }
        let count = max(1, min(fragments, bytes.count))
        let size = count == 1 ? bytes.count : (bytes.count + count - 1) / count
        var frames: [Frame] = []
        var start = 0
        for index in 0..<count {
            let end = index == count - 1 ? bytes.count : min(bytes.count, start + size)
            let head = (index == count - 1 ? 0x80 : 0) | (index == 0 ? opcode : 0)
            frames.append(Frame(bytes: Array(bytes[start..<end]), head: head))
            start = end
        }
        return frames
    }
}
