import CLibWebSockets
import Foundation
import Synchronization

/// One lws context and the OS thread that services it.
///
/// Threading invariant (the reason for `@unchecked Sendable`): everything below the `mailbox` is
/// touched only on the service thread: in `run()`, in lws callbacks (which lws makes from inside
/// a turn of the event loop or `lws_context_destroy` on that thread) and in the sul timer callbacks (same). The
/// only state shared with other threads is `mailbox`, guarded by its `Mutex`, and `nextID`, an
/// `Atomic`. The only lws call made off the service thread is `lws_cancel_service`, and it is made
/// while holding the mailbox lock, so it can never race `lws_context_destroy` (the service thread
/// clears the published context under the same lock before destroying it).
final class ServiceCore: @unchecked Sendable {
    let mailbox = Mutex(Mailbox())
    private let nextID = Atomic<UInt64>(1)
    let role: ServiceRole

    // MARK: Service-thread state

    var context: OpaquePointer?
    /// The libev loop lws runs on (`bc_ev_loop_new`): this thread turns it (`run()`), and destroys it after the
    /// context.
    var eventLoop: OpaquePointer?
    var sessions: [UInt64: ServiceSession] = [:]
    var stopping = false
    var destroying = false
    /// Scratch for `writeWithRoom`: frames with their LWS_PRE header room, reused by every write of this loop.
    var writeBuffer: [UInt8] = []
    /// A server's deflated frame, and the frames of a write being framed (`writeServerFrames`), reused likewise.
    var deflateOutput: [UInt8] = []
    var deflateStaging: [UInt8] = []
    /// A `wss://` server's certificate and key (ServiceCore+ServerLink.swift).
    var serverTLSContext: ServerTLSContext?
    var stopDeadlinePassed = false
    var stopTimer: UnsafeMutablePointer<bc_lws_timer_t>?
    /// Fires every `oversizeSweepInterval` on the service thread; see `refuseAnnouncedOversize()`.
    var sweepTimer: UnsafeMutablePointer<bc_lws_timer_t>?
    /// Timers whose session ended; freed after the current service pass, outside any callback.
    private var retiredTimers: [UnsafeMutablePointer<bc_lws_timer_t>] = []
    /// The client's one vhost: every client connection is a raw socket on it (its TLS is ours, ClientTLS.swift).
    var clientVhost: OpaquePointer?
    /// C memory that must outlive the context: the protocol table and the strings of it and of the context.
    private var protocols: UnsafeMutablePointer<lws_protocols>?
    private var permanentStrings: [UnsafeMutablePointer<CChar>] = []
    /// Where `MessageInflater` writes, for every client connection of this loop (one thread), made at first use.
    private var inflateScratchStorage: UnsafeMutableRawBufferPointer?
    /// Plaintext a `wss://` link's TLS gives back, and the ciphertext it writes (ServiceCore+LinkReading.swift).
    private var tlsScratchStorage: UnsafeMutableRawBufferPointer?
    var tlsOutputBuffer: [UInt8] = []
    /// OpenSSL client contexts by trust, made at a `wss://` link's first connect.
    private var tlsContexts: [WebSocketClientConfiguration.TLS: ClientTLSContext] = [:]
    /// Messages handed over since the last service pass (see `readCoalescing`).
    var deliveredThisPass = 0

    static let protocolName = "bcstream"
    /// A busy client loop (`DeliveryRate`) that has just delivered messages waits this long (µs) before it polls
    /// again, so that what arrives meanwhile is read with one wake-up and handed over in one batch. Reading a frame
    /// costs well under a microsecond now (ServiceCore+LinkReading.swift), so without the pause a busy link was
    /// polled and handed over once a TCP segment, one message each: two thread wake-ups a message, more CPU than
    /// the reading itself. Below the busy rate nothing waits, so a light stream keeps its latency.
    static let readCoalescing: UInt32 = 300
    /// What a loop reads from a socket at once (lws' per-thread buffer; 4 KiB by default).
    static let readSize: UInt32 = 64 * 1024
    /// How long an urgent close may wait for its close frame to get out before the TCP connection is dropped.
    static let urgentCloseDeadline = Duration.seconds(2)
    /// How often open connections are checked for a frame announced larger than the cap.
    static let oversizeSweepInterval = Duration.seconds(1)
    /// The session id of `sweepTimer` (sessions count from 1, the stop timer is 0).
    static let sweepTimerID = UInt64.max
    /// lws' context-wide connect and handshake timeouts on a client loop: the ceiling for
    /// `connectTimeout`.
    static let lwsHandshakeTimeoutSeconds = LibWebSocketsAssumptions.contextTimeoutSeconds

    init(role: ServiceRole) {
        self.role = role
    }

    deinit {
        inflateScratchStorage?.deallocate()
        tlsScratchStorage?.deallocate()
    }

    var tlsScratch: UnsafeMutableRawBufferPointer { Self.scratch(&tlsScratchStorage) }

    func tlsContext(for tls: WebSocketClientConfiguration.TLS) -> Result<ClientTLSContext, WebSocketConnectFailure> {
        if let made = tlsContexts[tls] { return .success(made) }
        let made = ClientTLSContext.make(tls)
        if case .success(let context) = made { tlsContexts[tls] = context }
        return made
    }

    var inflateScratch: UnsafeMutableRawBufferPointer { Self.scratch(&inflateScratchStorage) }

    /// A 64 KiB buffer of this loop, made at first use (freed in `deinit`).
    private static func scratch(_ storage: inout UnsafeMutableRawBufferPointer?) -> UnsafeMutableRawBufferPointer {
        if let made = storage { return made }
        let made = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        storage = made
        return made
    }

    /// Grows `buffer` (never shrinks it) to hold at least `count` bytes, doubling so that growth is rare.
    static func ensure(_ buffer: inout [UInt8], holds count: Int) {
        if buffer.count < count { buffer = [UInt8](repeating: 0, count: max(count, 2 * buffer.count)) }
    }

    // MARK: Any thread

    func makeID() -> UInt64 {
        nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    // MARK: Service thread: lifecycle

    /// lws logs to stderr. Silent by default: every failure it would log reaches the caller as a
    /// typed event. `BC_LWS_LOG=<lws log bitmask>` (1 errors, 3 +warnings, 7 +notices) turns it on.
    static var logLevel: Int32 {
        if let text = ProcessInfo.processInfo.environment["BC_LWS_LOG"], let level = Int32(text) {
            return level
        }
        return 0
    }

    func permanentString(_ text: String) -> UnsafeMutablePointer<CChar>? {
        guard let copy = strdup(text) else { return nil }
        permanentStrings.append(copy)
        return copy
    }

    func createContext() -> OpaquePointer? {
        let protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 2)
        protocols.initialize(repeating: lws_protocols(), count: 2)
        protocols[0].name = UnsafePointer(permanentString(Self.protocolName))
        protocols[0].callback = bcServiceCallback
        if case .server = role {
            // lws 4.1.6 sends at most this much per send(2) (lws_issue_raw), buffering the rest for later poll rounds;
            // by default its rx buffer size. A server's burst of frames (`writeServerFrames`) goes in one send, TLS
            // records and all.
            protocols[0].tx_packet_size = 2 * Self.coalescedWriteLimit
        }
        self.protocols = protocols

        var info = lws_context_creation_info()
        info.protocols = UnsafePointer(protocols)
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.options = bc_lws_option_ssl_global_init()
        info.gid = -1
        info.uid = -1
        info.vhost_name = UnsafePointer(permanentString("bc-0"))
        switch role {
        case .client:
            info.port = bc_lws_port_no_listen()
            // No lws TLS: a client's TLS is ours (ClientTLS.swift), so lws sets up no OpenSSL context and loads no
            // CA store (tens of milliseconds of CPU); a `wss://` link's trust is loaded at its first connect.
            info.options = 0
            info.pt_serv_buf_size = Self.readSize
            // lws' own handshake timeouts are per context (default 20 s); each connection has its
            // own `connectTimeout` timer, so keep lws' out of its way.
            info.timeout_secs = Self.lwsHandshakeTimeoutSeconds
            info.connect_timeout_secs = Self.lwsHandshakeTimeoutSeconds
        case .server(let configuration, _, _):
            configureListening(&info, configuration)
        }
        // Every socket of the context on libev's epoll loop (LibWebSocketsAssumptions.eventLoopOption): a wake-up
        // costs the sockets that are ready, where lws' own loop handed poll(2) every socket.
        guard let loop = bc_ev_loop_new() else { return nil }
        eventLoop = loop
        info.options |= LibWebSocketsAssumptions.eventLoopOption
        let foreignLoops = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)
        defer { foreignLoops.deallocate() }
        foreignLoops.initialize(to: UnsafeMutableRawPointer(loop))
        info.foreign_loops = foreignLoops
        guard let context = ContextCreation.create(&info) else {
            bc_ev_loop_destroy(loop)
            eventLoop = nil
            return nil
        }
        if case .client = role { clientVhost = lws_get_vhost_by_name(context, "bc-0") }
        return context
    }

    func freeTables() {
        protocols?.deallocate()
        protocols = nil
        for text in permanentStrings { free(text) }
        permanentStrings = []
        clientVhost = nil
    }

    // MARK: Service thread: commands

    func perform(_ command: ServiceCommand) {
        switch command {
        case .openClient(let id, let url, let configuration, let window, let deliver):
            guard !stopping else {
                deliver(.failed(.other("the WebSocket loop has stopped")))
                return
            }
            let session = ServiceSession(
                id: id,
                client: .init(url: url, configuration: configuration, deliver: deliver, window: window),
                stage: .resolving,
                maxMessageSize: configuration.maxMessageSize)
            sessions[id] = session
            startConnectTimer(session, after: configuration.connectTimeout)

        case .resolved(let id, let result):
            guard let session = sessions[id], session.stage == .resolving else { return }
            switch result {
            case .success(let addresses):
                session.client?.addresses = addresses
                connectNextAddress(session)
            case .failure(let failure):
                finish(session, failed: failure)
            }

        case .connectNextAddress(let id):
            guard let session = sessions[id], !session.finished, session.stage == .connecting else { return }
            connectNextAddress(session)

        case .send(let id, let bytes, let binary, let fragments):
            enqueue(id: id, bytes.count) { $0.enqueue(bytes, binary: binary, fragments: fragments) }

        case .sendMessages(let id, let messages, let binary):
            enqueue(id: id, messages.reduce(0) { $0 + $1.count }) { session in
                for bytes in messages { session.enqueue(bytes, binary: binary, fragments: 1) }
            }

        case .close(let id, let code, let reason, let discardingQueued):
            guard let session = sessions[id] else { return }
            if discardingQueued {
                requestUrgentClose(session, code: Self.sendableCloseCode(code), text: reason, cause: .requested,
                                   discardingQueued: true)
            } else {
                requestClose(session, code: Self.sendableCloseCode(code), text: reason, cause: .requested)
            }

        case .closeAfterFault(let id, let code, let text, let cause):
            guard let session = sessions[id], session.isOpen else { return }
            decideClose(session, code: code, text: text, cause: cause, discardingQueued: false)

        case .faultRepliesHandled(let id):
            if let session = sessions[id] { faultWaitEnded(session) }

        case .consumerGone(let id):
            guard let session = sessions[id] else { return }
            requestClose(session, code: 1000, text: "", cause: .requested)

        case .stall(let id, let stalled):
            guard let session = sessions[id], let wsi = session.wsi, session.isOpen else { return }
            session.stalled = stalled
            lws_rx_flow_control(wsi, stalled || session.readingPaused ? 0 : 1)
            if !stalled, session.hasOutgoing || session.closeRequest != nil { lws_callback_on_writable(wsi) }

        case .resumeReading(let id):
            guard let session = sessions[id], session.readingPaused else { return }
            session.readingPaused = false
            guard let link = session.link, let wsi = session.wsi, session.isOpen, session.localClose == nil,
                  !link.machine.closeWritten else { return }
            // The peer's pongs waited unread: it gets a whole keepalive window from now.
            session.lastValidity = .now
            if !link.heldInput.isEmpty, readHeldInput(session, link: link, wsi: wsi) != 0 {
                bc_lws_kill_async(wsi)
                return
            }
            // TLS keeps what it decrypted past the pause; no new bytes may come to make us read it.
            if let tls = link.tls, !session.readingPaused, readTLS(session, link: link, tls: tls, wsi: wsi) != 0 {
                bc_lws_kill_async(wsi)
                return
            }
            if !session.readingPaused { lws_rx_flow_control(wsi, 1) }

        case .stop:
            beginStop()
        }
    }

    /// Queues what `body` adds to session `id` (`bytes` in all), or forgets it when the session is gone or closing;
    /// a server client over `maxQueuedBytes` is closed at once.
    private func enqueue(id: UInt64, _ bytes: Int, _ body: (ServiceSession) -> Void) {
        guard let session = sessions[id], !session.finished, session.closeRequest == nil else {
            // A server's caller counted these bytes when it queued them.
            if case .server(_, _, let backlog) = role { _ = backlog.remove(bytes, for: id) }
            return
        }
        body(session)
        if case .server(let configuration, _, _) = role, session.queuedBytes > configuration.maxQueuedBytes {
            let limit = configuration.maxQueuedBytes
            requestUrgentClose(session, code: 1008, text: "not reading: over \(limit) bytes queued",
                               cause: .requested, discardingQueued: true)
            return
        }
        if session.isOpen, let wsi = session.wsi { lws_callback_on_writable(wsi) }
    }

    private func beginStop() {
        guard !stopping else { return }
        stopping = true
        for session in Array(sessions.values) {
            requestClose(session, code: 1001, text: "going away", cause: .loopStopped)
        }
        // Give open sessions a moment to exchange close frames, then destroy regardless.
        if let context, !sessions.isEmpty {
            let timer = UnsafeMutablePointer<bc_lws_timer_t>.allocate(capacity: 1)
            timer.initialize(to: bc_lws_timer_t())
            timer.pointee.session_id = 0
            timer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
            stopTimer = timer
            lws_sul_schedule(context, 0, Self.sul(of: timer), bcTimerCallback, 1_000_000)
        }
    }

    // MARK: Service thread: frames announced over the cap

    /// A peer that announces a 2^62-byte frame and then trickles a few bytes a second would hold the connection
    /// (and its consumer) for days before the assembler's cap is ever passed. The frame header is read, though
    /// (`FrameReader.remainingInFrame`): once a second,
    /// every open connection whose current frame announces more than the cap can take is refused now, as a
    /// too-big message would be (1009). Deflate can make a frame a little longer than its message (stored
    /// blocks), hence the slack; the exact check stays in `MessageAssembler`.
    func refuseAnnouncedOversize() {
        for session in sessions.values where session.isOpen && !session.finished && !session.closeUrgently
            && session.localClose == nil && !session.assembler.isDiscarding {
            guard let reader = session.link?.reader, reader.isInsideMessage else { continue }
            let announced = reader.remainingInFrame
            let limit = session.assembler.limit
            guard announced > limit / 64 + 1024, session.assembler.heldBytes + announced > limit + limit / 64 + 1024
            else { continue }
            let (held, prefix) = session.assembler.refuseAhead()
            let binary = reader.messageIsBinary
            let refused = RefusedMessage(reason: .tooBig(limit: limit), binary: binary,
                                         size: held + announced, prefix: prefix)
            deliver(session, refused: refused)
            requestUrgentClose(session, code: 1009, text: "message too big", cause: .messageTooBig(limit: limit))
        }
    }

    // MARK: Service thread: ending sessions

    func retireTimer(of session: ServiceSession) {
        guard let timer = session.timer else { return }
        if !destroying { lws_sul_cancel(Self.sul(of: timer)) }
        session.timer = nil
        retiredTimers.append(timer)
    }

    func freeRetiredTimers() {
        for timer in retiredTimers { timer.deallocate() }
        retiredTimers = []
    }

    func finish(_ session: ServiceSession, failed failure: WebSocketConnectFailure) {
        guard !session.finished else { return }
        session.finished = true
        retireTimer(of: session)
        sessions[session.id] = nil
        session.client?.deliver(.failed(failure))
    }

    func finish(_ session: ServiceSession, closed reason: WebSocketCloseReason) {
        guard !session.finished else { return }
        session.finished = true
        retireTimer(of: session)
        sessions[session.id] = nil
        session.wsi = nil
        if let client = session.client {
            client.deliver(.closed(reason))
        } else if case .server(_, let events, let backlog) = role {
            backlog.forget(session.id)
            events.yield(.disconnected(ClientID(rawValue: session.id)))
        }
    }

    // MARK: Helpers

    static func text(_ input: UnsafeMutableRawPointer?, _ length: Int) -> String {
        guard let input, length > 0 else { return "" }
        let bytes = UnsafeRawBufferPointer(start: input, count: length)
        return String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
    }

    static func truncatedUTF8(_ text: String, maxBytes: Int) -> String.UTF8View {
        var result = ""
        var used = 0
        for scalar in text.unicodeScalars {
            let size = String(scalar).utf8.count
            if used + size > maxBytes { break }
            used += size
            result.unicodeScalars.append(scalar)
        }
        return result.utf8
    }

    /// The sul is the first member of `bc_lws_timer_t`, so both share an address.
    static func sul(of timer: UnsafeMutablePointer<bc_lws_timer_t>) -> UnsafeMutablePointer<lws_sorted_usec_list_t> {
        UnsafeMutableRawPointer(timer).assumingMemoryBound(to: lws_sorted_usec_list_t.self)
    }
}
