import CLibWebSockets
import Foundation
import Synchronization

/// One lws context and the OS thread that services it.
///
/// Threading invariant (the reason for `@unchecked Sendable`): everything below the `mailbox` is
/// touched only on the service thread: in `run()`, in lws callbacks (which lws makes from inside
/// `lws_service` or `lws_context_destroy` on that thread) and in the sul timer callbacks (same). The
/// only state shared with other threads is `mailbox`, guarded by its `Mutex`, and `nextID`, an
/// `Atomic`. The only lws call made off the service thread is `lws_cancel_service`, and it is made
/// while holding the mailbox lock, so it can never race `lws_context_destroy` (the service thread
/// clears the published context under the same lock before destroying it).
final class ServiceCore: @unchecked Sendable {
    private struct Mailbox {
        var commands: [ServiceCommand] = []
        /// The context's address once created, 0 before and from the moment destruction starts.
        var contextAddress: UInt = 0
        var finished = false
        var start: ServiceStart?
        var startWaiters: [CheckedContinuation<ServiceStart, Never>] = []
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let mailbox = Mutex(Mailbox())
    private let nextID = Atomic<UInt64>(1)
    let role: ServiceRole

    // MARK: Service-thread state

    private var context: OpaquePointer?
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
    private var stopDeadlinePassed = false
    private var stopTimer: UnsafeMutablePointer<bc_lws_timer_t>?
    /// Fires every `oversizeSweepInterval` on the service thread; see `refuseAnnouncedOversize()`.
    private var sweepTimer: UnsafeMutablePointer<bc_lws_timer_t>?
    /// Timers whose session ended; freed after the current service pass, outside any callback.
    private var retiredTimers: [UnsafeMutablePointer<bc_lws_timer_t>] = []
    /// The client's one vhost: every client connection is a raw socket on it (its TLS is ours, ClientTLS.swift).
    private var clientVhost: OpaquePointer?
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
    private var deliveredThisPass = 0

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
    private static let sweepTimerID = UInt64.max
    /// lws' context-wide connect and handshake timeouts on a client loop: the ceiling for
    /// `connectTimeout`.
    static let lwsHandshakeTimeoutSeconds: UInt32 = 120

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

    /// Starts the service thread; it holds the core until the context is destroyed.
    func start(threadName: String) {
        let thread = Thread { [self] in
            self.run()
        }
        thread.name = threadName
        thread.start()
    }

    func makeID() -> UInt64 {
        nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// Queues a command and wakes the service thread. `false` once the core has finished.
    @discardableResult
    func submit(_ command: ServiceCommand) -> Bool {
        mailbox.withLock { box in
            guard !box.finished else { return false }
            box.commands.append(command)
            // A non-empty queue already has a wake-up on its way (the drain empties it).
            if box.commands.count == 1, let context = OpaquePointer(bitPattern: box.contextAddress) {
                lws_cancel_service(context)
            }
            return true
        }
    }

    /// Waits until the context exists (or failed to).
    func waitUntilStarted() async -> ServiceStart {
        await withCheckedContinuation { continuation in
            let ready: ServiceStart? = mailbox.withLock { box in
                if let start = box.start { return start }
                box.startWaiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Waits until the context is destroyed and the thread is done with it.
    func waitUntilFinished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = mailbox.withLock { box in
                if box.finished { return true }
                box.finishWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    // MARK: Service thread: lifecycle

    private func run() {
        lws_set_log_level(Self.logLevel, nil)
        if let problem = prepareServerTLS() {
            finishMailbox(start: .failed(problem))
            return
        }
        guard let context = createContext() else {
            freeTables()
            let message: String
            if case .server(let configuration, _, _) = role {
                message = "could not listen on \(configuration.host):\(configuration.port): "
                    + ListenFailureDiagnosis.reason(host: configuration.host, port: configuration.port)
            } else {
                message = "the WebSocket loop could not start: check the limits on memory and open files (ulimit -n)"
            }
            finishMailbox(start: .failed(message))
            return
        }
        self.context = context
        var port = 0
        if case .server = role, let vhost = lws_get_vhost_by_name(context, "bc-0") {
            port = Int(lws_get_vhost_listen_port(vhost))
        }
        let waiters = mailbox.withLock { box in
            box.contextAddress = UInt(bitPattern: context)
            box.start = .running(port: port)
            let waiters = box.startWaiters
            box.startWaiters = []
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: .running(port: port)) }
        // Commands queued before the context existed had no one to wake them.
        drainCommands()
        scheduleSweep(context)

        let coalesce = role.isClient
        var load = DeliveryRate()
        while !(stopping && (sessions.isEmpty || stopDeadlinePassed)) {
            if lws_service(context, 0) < 0 { break }
            freeRetiredTimers()
            if coalesce, deliveredThisPass > 0 {
                // Busy: let the next messages gather before polling again (see `readCoalescing`).
                if load.isBusy(adding: deliveredThisPass, now: .now) { usleep(Self.readCoalescing) }
                deliveredThisPass = 0
            }
        }

        // Past this point no other thread may reach the context.
        mailbox.withLock { $0.contextAddress = 0 }
        stopping = true
        for session in sessions.values { retireTimer(of: session) }
        if let stopTimer { lws_sul_cancel(Self.sul(of: stopTimer)) }
        if let sweepTimer { lws_sul_cancel(Self.sul(of: sweepTimer)) }
        destroying = true
        lws_context_destroy(context)
        self.context = nil
        for session in Array(sessions.values) {
            finish(session, closed: WebSocketCloseReason(
                code: 1001, text: "", initiatedLocally: true, cause: .loopStopped))
        }
        freeRetiredTimers()
        stopTimer?.deallocate()
        stopTimer = nil
        sweepTimer?.deallocate()
        sweepTimer = nil
        freeTables()
        if case .server(_, let events, _) = role { events.finish() }
        finishMailbox(start: nil)
    }

    private func finishMailbox(start: ServiceStart?) {
        let (leftover, startWaiters, finishWaiters, startResult) = mailbox.withLock { box in
            box.finished = true
            if let start { box.start = start }
            let result = box.start ?? .failed("stopped before starting")
            box.start = result
            let taken = (box.commands, box.startWaiters, box.finishWaiters, result)
            box.commands = []
            box.startWaiters = []
            box.finishWaiters = []
            return taken
        }
        for command in leftover {
            if case .openClient(_, _, _, _, let deliver) = command {
                deliver(.failed(.other("the WebSocket loop has stopped")))
            }
        }
        for waiter in startWaiters { waiter.resume(returning: startResult) }
        for waiter in finishWaiters { waiter.resume() }
    }

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

    private func createContext() -> OpaquePointer? {
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
        guard let context = ContextCreation.create(&info) else { return nil }
        if case .client = role { clientVhost = lws_get_vhost_by_name(context, "bc-0") }
        return context
    }

    private func freeTables() {
        protocols?.deallocate()
        protocols = nil
        for text in permanentStrings { free(text) }
        permanentStrings = []
        clientVhost = nil
    }

    // MARK: Service thread: commands

    /// Runs every queued command; called from LWS_CALLBACK_EVENT_WAIT_CANCELLED (lws delivers it
    /// once per vhost, so this must be, and is, harmless when the queue is empty).
    fileprivate func drainCommands() {
        let commands = mailbox.withLock { box in
            let taken = box.commands
            box.commands = []
            return taken
        }
        for command in commands { perform(command) }
    }

    private func perform(_ command: ServiceCommand) {
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

    // MARK: Service thread: client connect

    private func startConnectTimer(_ session: ServiceSession, after timeout: Duration) {
        startTimer(session, after: timeout)
    }

    /// The session's one timer: the connect deadline before it opens, the paused keepalive after.
    func startTimer(_ session: ServiceSession, after timeout: Duration) {
        guard let context else { return }
        let timer = UnsafeMutablePointer<bc_lws_timer_t>.allocate(capacity: 1)
        timer.initialize(to: bc_lws_timer_t())
        timer.pointee.session_id = session.id
        timer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        session.timer = timer
        let (seconds, attoseconds) = timeout.components
        let microseconds = max(1, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        lws_sul_schedule(context, 0, Self.sul(of: timer), bcTimerCallback, microseconds)
    }

    private func scheduleSweep(_ context: OpaquePointer) {
        if sweepTimer == nil {
            let timer = UnsafeMutablePointer<bc_lws_timer_t>.allocate(capacity: 1)
            timer.initialize(to: bc_lws_timer_t())
            timer.pointee.session_id = Self.sweepTimerID
            timer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
            sweepTimer = timer
        }
        guard let sweepTimer else { return }
        let (seconds, attoseconds) = Self.oversizeSweepInterval.components
        lws_sul_schedule(context, 0, Self.sul(of: sweepTimer), bcTimerCallback,
                         seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    }

    /// A peer that announces a 2^62-byte frame and then trickles a few bytes a second would hold the connection
    /// (and its consumer) for days before the assembler's cap is ever passed. The frame header is read, though
    /// (`FrameReader.remainingInFrame`): once a second,
    /// every open connection whose current frame announces more than the cap can take is refused now, as a
    /// too-big message would be (1009). Deflate can make a frame a little longer than its message (stored
    /// blocks), hence the slack; the exact check stays in `MessageAssembler`.
    private func refuseAnnouncedOversize() {
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

    fileprivate func timerFired(sessionID: UInt64) {
        if sessionID == Self.sweepTimerID {
            refuseAnnouncedOversize()
            let now = ContinuousClock.now
            for session in sessions.values {
                if let link = session.link { keepAlive(session, link: link, now: now) }
            }
            if let context, !destroying { scheduleSweep(context) }
            return
        }
        if sessionID == 0 {
            stopDeadlinePassed = true
            return
        }
        guard let session = sessions[sessionID], !session.finished else { return }
        if session.client == nil, !session.isOpen {
            upgradeTimedOut(session)
            return
        }
        if session.isOpen, session.closeUrgently, session.closeRequest == nil {
            faultWaitEnded(session)  // a server's consumer did not get to the fault within `faultReplyGrace`
            return
        }
        if session.isOpen, session.closeUrgently || session.link?.machine.closeWritten == true {
            // The close frame could not get out (a peer that does not read: lws holds WRITEABLE back while a
            // partial write waits): drop the TCP connection.
            retireTimer(of: session)
            if let wsi = session.wsi { bc_lws_kill_async(wsi) }
            return
        }
        guard let client = session.client, !session.isOpen else { return }
        if let wsi = session.wsi { bc_lws_kill_async(wsi) }
        session.wsi = nil
        let after = client.configuration.connectTimeout
        finish(session, failed: session.stage == .upgrading ? .handshakeTimedOut(after: after) : .timedOut(after: after))
    }

    private func connectNextAddress(_ session: ServiceSession) {
        guard let context, var client = session.client else { return }
        guard client.nextAddress < client.addresses.count else {
            finish(session, failed: session.lastFailure ?? .refused)
            return
        }
        let address = client.addresses[client.nextAddress]
        client.nextAddress += 1
        session.client = client
        session.stage = .connecting

        let url = client.url
        guard let vhost = clientVhost else {
            finish(session, failed: .other("the WebSocket loop could not start connections: make a new loop"))
            return
        }
        var temporary: [UnsafeMutablePointer<CChar>] = []
        defer { for text in temporary { free(text) } }
        func cString(_ text: String?) -> UnsafePointer<CChar>? {
            guard let text, let copy = strdup(text) else { return nil }
            temporary.append(copy)
            return UnsafePointer(copy)
        }

        var info = lws_client_connect_info()
        info.context = context
        info.vhost = vhost
        info.address = cString(address)
        info.port = Int32(url.port)
        info.local_protocol_name = cString(Self.protocolName)
        // A raw socket: lws connects, and the WebSocket (with its TLS, for wss) is ours (ServiceCore+ClientLink.swift).
        info.host = cString(url.host)
        info.method = bc_lws_raw_method()
        info.opaque_user_data = UnsafeMutableRawPointer(bitPattern: UInt(session.id))

        // lws copies the strings into its own stash. It may also call CONNECTION_ERROR before
        // returning, which then has already finished the session or moved it on.
        session.inConnectCall = true
        session.errorDuringConnectCall = false
        let wsi = lws_client_connect_via_info(&info)
        session.inConnectCall = false
        guard !session.finished, !session.errorDuringConnectCall else { return }
        if let wsi {
            session.wsi = wsi
        } else {
            session.lastFailure = .other("could not open a socket to \(address): check the process's file descriptor limit")
            submit(.connectNextAddress(id: session.id))
        }
    }

    // MARK: Service thread: ending sessions

    func retireTimer(of session: ServiceSession) {
        guard let timer = session.timer else { return }
        if !destroying { lws_sul_cancel(Self.sul(of: timer)) }
        session.timer = nil
        retiredTimers.append(timer)
    }

    private func freeRetiredTimers() {
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

    private func finish(_ session: ServiceSession, closed reason: WebSocketCloseReason) {
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

    // MARK: Service thread: lws callbacks

    private func session(of wsi: OpaquePointer) -> ServiceSession? {
        guard let raw = lws_get_opaque_user_data(wsi) else { return nil }
        return sessions[UInt64(UInt(bitPattern: raw))]
    }

    fileprivate func handle(wsi: OpaquePointer, reason: lws_callback_reasons, user: UnsafeMutableRawPointer?,
                            input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            if !destroying { drainCommands() }
            return 0

        // Both roles: a raw socket, its WebSocket ours (ServiceCore+ClientLink.swift, ServiceCore+ServerLink.swift)
        case LWS_CALLBACK_RAW_CONNECTED:
            guard let session = session(of: wsi), session.client != nil else { return 0 }
            return rawConnected(session, wsi: wsi)
        case LWS_CALLBACK_RAW_RX:
            guard let session = session(of: wsi) else { return 0 }
            return rawReceived(session, wsi: wsi, input: input, length: length)
        case LWS_CALLBACK_RAW_WRITEABLE:
            guard let session = session(of: wsi) else { return 0 }
            return rawWritable(session, wsi: wsi)
        case LWS_CALLBACK_RAW_CLOSE:
            if let session = session(of: wsi) {
                if session.client == nil { serverClosed(session) } else { rawClosed(session) }
            }
            return 0
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            if let session = session(of: wsi) { connectionError(session, wsi: wsi, input: input, length: length) }
            return 0

        case LWS_CALLBACK_RAW_ADOPT:
            return rawAdopted(wsi: wsi)

        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }

    func opened(_ session: ServiceSession, wsi: OpaquePointer) -> Int32 {
        guard !session.finished else { return -1 }
        retireTimer(of: session)
        session.wsi = wsi
        session.stage = .open
        session.lastValidity = .now
        session.client?.deliver(.opened)
        if session.hasOutgoing || session.closeRequest != nil { lws_callback_on_writable(wsi) }
        return 0
    }

    private func connectionError(_ session: ServiceSession, wsi: OpaquePointer,
                                 input: UnsafeMutableRawPointer?, length: Int) {
        guard !session.finished, let client = session.client else { return }
        if session.inConnectCall { session.errorDuringConnectCall = true }
        if stopping {
            finish(session, failed: .cancelled)
            return
        }
        // Only TCP comes here: a client's TLS and upgrade are ours (ServiceCore+ClientLink.swift).
        let message = Self.text(input, length)
        var failure = ConnectFailureClassifier.classify(message: message, httpStatus: 0, reachedUpgrade: false,
                                                        secure: false)
        if case .other = failure, message.lowercased().contains("timeout") || message.lowercased().contains("timed out") {
            // lws' own timer fired before ours (a connectTimeout above lwsHandshakeTimeoutSeconds).
            failure = .timedOut(after: ContinuousClock.now - session.startedAt)
        }
        session.wsi = nil
        if failure == .refused, client.nextAddress < client.addresses.count {
            // Another address of the same host may answer (e.g. ::1 refused, 127.0.0.1 listening).
            session.lastFailure = failure
            session.stage = .connecting
            submit(.connectNextAddress(id: session.id))
            return
        }
        finish(session, failed: failure)
    }

    /// A chunk of a message's payload, as lws or our own reader hands it over; `final` when it ends the message.
    /// A whole text message in one chunk, as nearly every one is, goes straight from the read buffer into its
    /// String, without the assembler's copy (text that is not UTF-8 takes the assembler's path, which refuses it);
    /// anything else through the assembler. `stillAnnounced`: bytes of the current frame not read yet.
    func take(_ session: ServiceSession, _ chunk: UnsafeRawBufferPointer, final: Bool, binary: Bool,
              wsi: OpaquePointer, stillAnnounced: () -> Int) {
        if final, !binary, session.assembler.isBetweenMessages, chunk.count <= session.assembler.limit,
           let text = String(validating: chunk.assumingMemoryBound(to: UInt8.self), as: UTF8.self) {
            deliver(session, .text(text), size: chunk.count, wsi: wsi)
            return
        }
        let outcome = session.assembler.append(chunk, final: final, binary: binary)
        assembled(session, outcome, wsi: wsi, stillAnnounced: stillAnnounced())
    }

    /// What the assembler made of a chunk: a message delivered, or one refused (1007, 1009) with what it held.
    /// `stillAnnounced`: bytes of the current frame not read yet, counted in a refused message's size.
    func assembled(_ session: ServiceSession, _ outcome: MessageAssembler.Outcome, wsi: OpaquePointer,
                   stillAnnounced: Int) {
        switch outcome {
        case .partial, .discarding:
            return
        case .message(let binary, let bytes):
            if binary {
                deliver(session, .binary(bytes), size: bytes.count, wsi: wsi)
                return
            }
            // The assembler checked it (`UTF8Validator`).
            deliver(session, .text(String(decoding: bytes, as: UTF8.self)), size: bytes.count, wsi: wsi)
        case .invalidUTF8(let received, let prefix):
            let refused = RefusedMessage(reason: .invalidUTF8, binary: false, size: received, prefix: prefix)
            deliver(session, refused: refused)
            requestUrgentClose(session, code: 1007, text: "invalid UTF-8", cause: .invalidUTF8)
        case .tooBig(let limit, let binary, let received, let prefix):
            let refused = RefusedMessage(reason: .tooBig(limit: limit), binary: binary,
                                         size: received + stillAnnounced, prefix: prefix)
            deliver(session, refused: refused)
            requestUrgentClose(session, code: 1009, text: "message too big", cause: .messageTooBig(limit: limit))
        }
    }

    private enum Received {
        case text(String)
        case binary([UInt8])
    }

    private func deliver(_ session: ServiceSession, _ message: Received, size: Int, wsi: OpaquePointer) {
        // Only the two fields it needs, not a copy of the whole `ClientSide` (a retain and a release of each of
        // its references, for every frame).
        if let deliver = session.client?.deliver {
            deliveredThisPass += 1
            // Counted before it is handed over: the consumer may release it before `deliver` returns.
            if let window = session.client?.window {
                let id = session.id
                // One resume closure per session, not one per message.
                let resume: @Sendable () -> Void
                if let made = session.resumeReading {
                    resume = made
                } else {
                    resume = { [weak self] in self?.submit(.resumeReading(id: id)) }
                    session.resumeReading = resume
                }
                let pause = window.admit(bytes: size, resume: resume)
                if pause, !session.readingPaused {
                    // The keepalive skips a paused link (`keepAlive`): its pongs wait unread.
                    session.readingPaused = true
                    lws_rx_flow_control(wsi, 0)
                }
            }
            switch message {
            case .text(let text): deliver(.text(text))
            case .binary(let bytes): deliver(.binary(bytes))
            }
        } else if case .server(_, let events, _) = role {
            let client = ClientID(rawValue: session.id)
            switch message {
            case .text(let text): events.yield(.text(client, text))
            case .binary(let bytes): events.yield(.binary(client, bytes))
            }
        }
    }

    private func deliver(_ session: ServiceSession, refused: RefusedMessage) {
        if let client = session.client {
            client.deliver(.refused(refused))
        } else if case .server(_, let events, _) = role {
            events.yield(.refused(ClientID(rawValue: session.id), refused))
        }
    }

    /// The most payload one write carries (one frame may be larger: it goes alone).
    static let coalescedWriteLimit = 64 * 1024

    func closed(_ session: ServiceSession) {
        guard !session.finished else { return }
        let reason: WebSocketCloseReason
        if let local = session.localClose {
            reason = local
        } else if let peer = session.peerClose {
            reason = WebSocketCloseReason(code: peer.code, text: peer.text, initiatedLocally: false, cause: .peerClosed)
        } else if stopping {
            reason = WebSocketCloseReason(code: 1001, text: "", initiatedLocally: true, cause: .loopStopped)
        } else if let silence = silenceWindow(session) {
            reason = WebSocketCloseReason(code: WebSocketCloseReason.abnormalClosure,
                                          text: "no pong within \(silence)", initiatedLocally: true,
                                          cause: .silence(after: silence))
        } else {
            reason = WebSocketCloseReason(code: WebSocketCloseReason.abnormalClosure, text: "",
                                          initiatedLocally: false, cause: .connectionLost)
        }
        finish(session, closed: reason)
    }

    /// The keepalive (`keepAlive`) drops a link without a close frame when no pong came for `hangupAfterSilence`.
    /// A close without a close frame that comes at least that long after the last pong (or the open) is that hangup.
    private func silenceWindow(_ session: ServiceSession) -> Duration? {
        guard let client = session.client else { return nil }
        let hangup = Duration.seconds(Int(client.configuration.validitySeconds.hangup))
        let elapsed = ContinuousClock.now - session.lastValidity
        return elapsed >= hangup - .milliseconds(500) ? hangup : nil
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
    private static func sul(of timer: UnsafeMutablePointer<bc_lws_timer_t>) -> UnsafeMutablePointer<lws_sorted_usec_list_t> {
        UnsafeMutableRawPointer(timer).assumingMemoryBound(to: lws_sorted_usec_list_t.self)
    }

    fileprivate func timerCallback(_ timer: UnsafeMutablePointer<bc_lws_timer_t>) {
        timerFired(sessionID: timer.pointee.session_id)
    }
}

/// The protocol callback lws calls for every wsi of the context; finds the core through the
/// context's user pointer (the core outlives its context: the service thread holds it).
private func bcServiceCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let raw = lws_context_user(context) else {
        return 0
    }
    let core = Unmanaged<ServiceCore>.fromOpaque(raw).takeUnretainedValue()
    return core.handle(wsi: wsi, reason: reason, user: user, input: input, length: length)
}

/// The sul callback of every binding timer: the sul is the first member of `bc_lws_timer_t`.
private func bcTimerCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let timer = bc_lws_timer_from_sul(sul), let owner = timer.pointee.owner else { return }
    let core = Unmanaged<ServiceCore>.fromOpaque(owner).takeUnretainedValue()
    core.timerCallback(timer)
}
