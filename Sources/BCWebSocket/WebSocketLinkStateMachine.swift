/// The control decisions of one WebSocket link that frames its own bytes (`FrameLink`, either role), without a
/// socket: which pongs are owed, when a keepalive ping goes out, and the close handshake with what may still be
/// written before it. The IO shell (ServiceCore+LinkReading/LinkWriting.swift) tells it what happened and performs
/// what it answers; time comes from outside (`keepAliveTick`), so every path is tested without a network.
///
/// ```
/// open ─close requested─▶ closeRequested ─queue written (or discarded)─▶ closeSent ─peer's close─▶ finished
///   └─peer's close─▶ answerOwed ─our answer written─▶ answered ─written out─▶ finished
/// ```
/// Writes go in this order: the answer to the peer's close (nothing after it), a close that discards the queue,
/// then the pongs owed (every ping is answered, in order: RFC 6455 5.5.3 allows answering only the latest, but a
/// peer may count them), a keepalive ping, queued data, and last a close that waits for the queue.
struct WebSocketLinkStateMachine {
    /// The payload of a close frame: a code and its text, or nothing (1005 on the other side).
    struct CloseFrame: Equatable {
        var code: UInt16?
        var text: String

        /// The frame's payload (code, then the text cut to fit 125 bytes at a character boundary).
        var payload: [UInt8] {
            guard let code else { return [] }
            var bytes = [UInt8(code >> 8), UInt8(code & 0xFF)]
            bytes.append(contentsOf: ServiceCore.truncatedUTF8(text, maxBytes: 123))
            return bytes
        }
    }

    enum Closing: Equatable {
        case open
        /// This side closes: after what is queued (`discardingQueued` false: a close asked for, or the peer broke a
        /// rule after messages whose answers are queued), or before it.
        case closeRequested(CloseFrame, discardingQueued: Bool)
        /// Our close is written; the peer's answer ends the link.
        case closeSent
        /// The peer's close came first; ours answers it, with nothing before it that is not written yet.
        case answerOwed(CloseFrame)
        /// Our answer to the peer's close is written; the socket closes once it is out.
        case answered
        /// The close handshake is done: the socket is to be closed.
        case finished
    }

    enum KeepAlive: Equatable {
        /// Nothing outstanding.
        case quiet
        /// A ping is to be written.
        case pingDue
        /// Our ping is written; no pong has come since.
        case awaitingPong
    }

    /// What to write when the socket can take more.
    enum Write: Equatable {
        case pong([UInt8])
        case ping
        /// The queued data frames (the shell takes a batch).
        case data
        /// A close frame; `Closing` has moved past it.
        case close(CloseFrame)
        /// Everything is written, the close handshake is over: close the socket.
        case closeSocket
        case nothing
    }

    /// What a ping did.
    enum PingOutcome: Equatable {
        /// A pong is owed: ask for WRITEABLE.
        case answer
        /// The link is closing: pings are no longer answered.
        case ignored
        /// More pings wait unanswered than `maxOwedPongs`: the peer pings faster than it reads. Close 1008 (the
        /// owed pongs are dropped).
        case flooded
    }

    /// What a close frame from the peer did.
    enum CloseOutcome: Equatable {
        /// It answers ours: close the socket.
        case handshakeDone
        /// Ours answers it: drop the queued data and ask for WRITEABLE.
        case answerOwed
    }

    /// What the keepalive asks for.
    enum KeepAliveAction: Equatable {
        case none
        case ping
        /// No pong for the hangup window: drop the connection.
        case hangUp
    }

    /// The most pongs owed at once: a ping carries at most 125 bytes, so at most 4 KiB, whatever the peer sends.
    static let maxOwedPongs = 32

    private(set) var closing = Closing.open
    private(set) var keepAlive = KeepAlive.quiet
    /// Pongs owed, oldest first.
    private(set) var owedPongs: [[UInt8]] = []

    /// A close is decided, written or owed.
    var isClosing: Bool { closing != .open }

    /// Our close frame went out (the peer's answer, or a deadline, ends the link).
    var closeWritten: Bool {
        switch closing {
        case .closeSent, .answered, .finished: true
        case .open, .closeRequested, .answerOwed: false
        }
    }

    /// A close frame went either way (ours written, or the peer's read): a frame that breaks the rules now just
    /// ends the connection.
    var closeFrameExchanged: Bool {
        switch closing {
        case .closeSent, .answerOwed, .answered, .finished: true
        case .open, .closeRequested: false
        }
    }

    // MARK: Events in

    /// A ping came with `payload`. Answered until a close frame goes either way (a close asked for may wait
    /// behind queued data for a while; a close that discards the queue drops the pongs with it).
    mutating func pingReceived(_ payload: [UInt8]) -> PingOutcome {
        guard !closeFrameExchanged else { return .ignored }
        guard owedPongs.count < Self.maxOwedPongs else {
            owedPongs = []
            return .flooded
        }
        owedPongs.append(payload)
        return .answer
    }

    /// A pong came: the ping we wrote (if any) is answered.
    mutating func pongReceived() {
        if keepAlive == .awaitingPong { keepAlive = .quiet }
    }

    /// The peer's close frame came. `echo`: what ours says back (its code, nil for none, 1002 for a bad one).
    mutating func closeReceived(echo: CloseFrame) -> CloseOutcome {
        switch closing {
        case .closeSent, .answered, .finished:
            closing = .finished
            return .handshakeDone
        case .open, .closeRequested, .answerOwed:
            // RFC 6455 5.5.1: our close answers it without more data; pongs owed are moot.
            closing = .answerOwed(echo)
            owedPongs = []
            keepAlive = .quiet
            return .answerOwed
        }
    }

    /// This side decides to close. `discardingQueued`: the close goes before what is queued (which the shell
    /// drops). False when nothing was decided yet; a close already decided or owed stands.
    @discardableResult
    mutating func requestClose(_ frame: CloseFrame, discardingQueued: Bool) -> Bool {
        guard closing == .open else { return false }
        closing = .closeRequested(frame, discardingQueued: discardingQueued)
        if discardingQueued { owedPongs = [] }
        return true
    }

    /// The keepalive's sweep: `silence` since the last sign of life (the open, a pong, a resume). It goes on
    /// while a close waits behind queued data (a peer that stops reading then is still hung up on); once a close
    /// frame went either way, the close deadline takes over.
    mutating func keepAliveTick(silence: Duration, pingAfter: Duration, hangUpAfter: Duration) -> KeepAliveAction {
        guard !closeFrameExchanged else { return .none }
        if silence >= hangUpAfter { return .hangUp }
        guard silence >= pingAfter, keepAlive == .quiet else { return .none }
        keepAlive = .pingDue
        return .ping
    }

    /// The socket can take more: what to write, given whether data is queued.
    mutating func nextWrite(hasQueuedData: Bool) -> Write {
        switch closing {
        case .finished, .answered:
            return .closeSocket
        case .closeSent:
            return .nothing
        case .answerOwed(let frame):
            closing = .answered
            return .close(frame)
        case .closeRequested(let frame, true):
            closing = .closeSent
            return .close(frame)
        case .open, .closeRequested(_, false):
            break
        }
        if !owedPongs.isEmpty { return .pong(owedPongs.removeFirst()) }
        if keepAlive == .pingDue {
            keepAlive = .awaitingPong
            return .ping
        }
        if hasQueuedData { return .data }
        if case .closeRequested(let frame, _) = closing {
            closing = .closeSent
            return .close(frame)
        }
        return .nothing
    }

    /// Whether anything waits for the socket to take it (ask for WRITEABLE again).
    func wantsToWrite(hasQueuedData: Bool) -> Bool {
        switch closing {
        case .closeSent, .finished: false
        case .answered, .answerOwed, .closeRequested: true
        case .open: hasQueuedData || !owedPongs.isEmpty || keepAlive == .pingDue
        }
    }
}
