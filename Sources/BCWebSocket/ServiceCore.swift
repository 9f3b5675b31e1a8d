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
    let mailbox = Mutex(Mailbox())
    private let nextID = Atomic<UInt64>(1)
    let role: ServiceRole

    // MARK: Service-thread state

    var context: OpaquePointer?
    var sessions: [UInt64: ServiceSession] = [:]
    /// Server: connections accepted and not yet upgraded, so that one dropped before its upgrade is reported.
    /// An entry lives from lws' NEW_CLIENT_INSTANTIATED to ESTABLISHED or WSI_DESTROY, so the table holds at
    /// most the sockets lws has open.
    private var pendingUpgrades: [OpaquePointer: PendingUpgrade] = [:]
    var stopping = false
    var destroying = false
    /// Scratch for `write(_:to:)`: the frame with its LWS_PRE header room, reused by every write of this loop.
    var writeBuffer: [UInt8] = []
    var stopDeadlinePassed = false
    var stopTimer: UnsafeMutablePointer<bc_lws_timer_t>?
    /// Fires every `oversizeSweepInterval` on the service thread; see `refuseAnnouncedOversize()`.
    var sweepTimer: UnsafeMutablePointer<bc_lws_timer_t>?
    /// Timers whose session ended; freed after the current service pass, outside any callback.
    private var retiredTimers: [UnsafeMutablePointer<bc_lws_timer_t>] = []
    /// The client's one vhost: every client connection is a raw socket on it (its TLS is ours, ClientTLS.swift).
    var clientVhost: OpaquePointer?
    /// C memory that must outlive the context: protocol and extension tables and their strings.
    private var protocols: UnsafeMutablePointer<lws_protocols>?
    private var extensions: UnsafeMutablePointer<lws_extension>?
    private var permanentStrings: [UnsafeMutablePointer<CChar>] = []
    /// Where `MessageInflater` writes, for every client connection of this loop (one thread), made at first use.
    private var inflateScratchStorage: UnsafeMutableRawBufferPointer?
    /// Plaintext a `wss://` link's TLS gives back, and the ciphertext it writes (ServiceCore+ClientLink.swift).
    private var tlsScratchStorage: UnsafeMutableRawBufferPointer?
    var tlsOutputBuffer: [UInt8] = []
    /// OpenSSL client contexts by trust, made at a `wss://` link's first connect.
    private var tlsContexts: [WebSocketClientConfiguration.TLS: ClientTLSContext] = [:]
    /// Messages handed over since the last service pass (see `readCoalescing`).
    var deliveredThisPass = 0

    private struct PendingUpgrade {
        var peer: String
        var since: ContinuousClock.Instant
    }

    static let protocolName = "bcstream"
    /// A busy client loop (`DeliveryRate`) that has just delivered messages waits this long (µs) before it polls
    /// again, so that what arrives meanwhile is read with one wake-up and handed over in one batch. Reading a frame
    /// costs well under a microsecond now (ServiceCore+ClientLink.swift), so without the pause a busy link was
    /// polled and handed over once a TCP segment, one message each: two thread wake-ups a message, more CPU than
    /// the reading itself. Below the busy rate nothing waits, so a light stream keeps its latency.
    static let readCoalescing: UInt32 = 300
    /// What a client loop reads from a socket at once (lws' per-thread buffer; 4 KiB by default).
    static let clientReadSize: UInt32 = 64 * 1024
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

    /// Why lws could not use a server's TLS files, told before the guess about the port; nil when both read as
    /// PEM (then the pair may still not match, which lws reports as a failed context).
    static func unusableTLSFiles(_ tls: WebSocketServerConfiguration.TLS) -> String? {
        for (what, path) in [("certificate", tls.certificateFile), ("private key", tls.privateKeyFile)] {
            guard let data = FileManager.default.contents(atPath: path) else {
                return "cannot read the TLS \(what) \(path): check the path and its permissions"
            }
            guard String(decoding: data, as: UTF8.self).contains("-----BEGIN ") else {
                return "the TLS \(what) \(path) is not a PEM file (it has no -----BEGIN line)"
            }
        }
        return nil
    }

    /// lws logs to stderr. Silent by default: every failure it would log reaches the caller as a
    /// typed event. `BC_LWS_LOG=<lws log bitmask>` (1 errors, 3 +warnings, 7 +notices) turns it on.
    static var logLevel: Int32 {
        if let text = ProcessInfo.processInfo.environment["BC_LWS_LOG"], let level = Int32(text) {
            return level
        }
        return 0
    }

    private func permanentString(_ text: String) -> UnsafeMutablePointer<CChar>? {
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
            // by default its rx buffer size, 4 KiB. A server's burst of frames (`writeFrames`) goes in one send.
            protocols[0].tx_packet_size = Self.coalescedWriteLimit + 64
        }
        self.protocols = protocols

        let extensions = UnsafeMutablePointer<lws_extension>.allocate(capacity: 2)
        extensions.initialize(repeating: lws_extension(), count: 2)
        extensions[0].name = UnsafePointer(permanentString("permessage-deflate"))
        extensions[0].callback = lws_extension_callback_pm_deflate
        extensions[0].client_offer = UnsafePointer(permanentString("permessage-deflate; client_max_window_bits"))
        self.extensions = extensions

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
            info.pt_serv_buf_size = Self.clientReadSize
            // lws' own handshake timeouts are per context (default 20 s); each connection has its
            // own `connectTimeout` timer, so keep lws' out of its way.
            info.timeout_secs = Self.lwsHandshakeTimeoutSeconds
            info.connect_timeout_secs = Self.lwsHandshakeTimeoutSeconds
        case .server(let configuration, _, _):
            info.port = Int32(configuration.port)
            info.iface = UnsafePointer(permanentString(configuration.host))
            if configuration.permessageDeflate { info.extensions = UnsafePointer(extensions) }
            let seconds = configuration.handshakeTimeout.components.seconds
            // lws gives an accepted connection `timeout_secs` to start its request, then
            // `timeout_secs_ah_idle` (default 10 s) once a header table holds what it sent so far.
            info.timeout_secs = UInt32(clamping: max(1, seconds))
            info.timeout_secs_ah_idle = UInt32(clamping: max(1, seconds))
            // lws checks a client's text (and close reasons) byte by byte as it parses, and closes with 1007 at the
            // first bad byte (RFC 6455 8.1: fail fast), where our own check sees a frame only once lws hands it over.
            info.options |= bc_lws_option_validate_utf8()
            if AddressResolver.isIPv4(configuration.host) {
                info.options |= bc_lws_option_disable_ipv6()
            }
            if configuration.tls == nil {
                // No TLS at all: lws then sets up no OpenSSL context, nor loads the system's CA store for clients
                // this server never makes (tens of milliseconds of CPU at start-up).
                info.options &= ~bc_lws_option_ssl_global_init()
            }
            if let tls = configuration.tls {
                // lws (built with OpenSSL) loads both at context creation and serves TLS on every connection.
                info.ssl_cert_filepath = UnsafePointer(permanentString(tls.certificateFile))
                info.ssl_private_key_filepath = UnsafePointer(permanentString(tls.privateKeyFile))
            }
        }
        guard let context = ContextCreation.create(&info) else { return nil }
        if case .client = role { clientVhost = lws_get_vhost_by_name(context, "bc-0") }
        return context
    }

    func freeTables() {
        protocols?.deallocate()
        protocols = nil
        extensions?.deallocate()
        extensions = nil
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

    /// lws hands a RECEIVE callback nothing until its rx buffer fills or the frame ends, so a peer that
    /// announces a 2^62-byte frame and then trickles a few bytes a second would hold the connection (and its
    /// consumer) for days before the cap is ever checked. The frame header is read, though: once a second,
    /// every open connection whose current frame announces more than the cap can take is refused now, as a
    /// too-big message would be (1009). Deflate can make a frame a little longer than its message (stored
    /// blocks), hence the slack; the exact check stays in `MessageAssembler`.
    func refuseAnnouncedOversize() {
        for session in sessions.values where session.isOpen && !session.finished && !session.closeUrgently
            && session.localClose == nil && !session.assembler.isDiscarding {
            guard let wsi = session.wsi else { continue }
            let announced: Int
            if let link = session.link {
                guard let reader = link.reader, reader.isInsideMessage else { continue }
                announced = reader.remainingInFrame
            } else {
                announced = Int(clamping: lws_remaining_packet_payload(wsi))
            }
            let limit = session.assembler.limit
            guard announced > limit / 64 + 1024, session.assembler.heldBytes + announced > limit + limit / 64 + 1024
            else { continue }
            let (held, prefix) = session.assembler.refuseAhead()
            let binary = session.link.map { $0.reader?.messageIsBinary ?? false } ?? (lws_frame_is_binary(wsi) != 0)
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

        // Client: a raw socket, its WebSocket ours (ServiceCore+ClientLink.swift)
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
            if let session = session(of: wsi) { rawClosed(session) }
            return 0
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            if let session = session(of: wsi) { connectionError(session, wsi: wsi, input: input, length: length) }
            return 0

        // Server
        case LWS_CALLBACK_RECEIVE:
            guard let session = session(of: wsi) else { return 0 }
            return received(session, wsi: wsi, input: input, length: length)
        case LWS_CALLBACK_SERVER_WRITEABLE:
            guard let session = session(of: wsi) else { return 0 }
            return writable(session, wsi: wsi)
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            if let session = session(of: wsi) {
                // lws checked the frame; a payload under 2 bytes has no code (1005).
                let payload = length >= 2 ? Array(UnsafeRawBufferPointer(start: input, count: length)) : []
                let close = Self.parseClose(payload)
                session.peerClose = (close.code, close.text)
            }
            return 0
        case LWS_CALLBACK_CLOSED:
            if let session = session(of: wsi) {
                reportLwsRefusal(session, wsi: wsi)
                closed(session)
            }
            return 0
        case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED:
            if case .server = role, !stopping {
                pendingUpgrades[wsi] = PendingUpgrade(peer: Self.peerAddress(of: wsi), since: .now)
            }
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        case LWS_CALLBACK_WSI_DESTROY:
            if let pending = pendingUpgrades.removeValue(forKey: wsi), !stopping,
               case .server(_, let events, _) = role {
                events.yield(.abandoned(peer: pending.peer, after: .now - pending.since))
            }
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        case LWS_CALLBACK_ESTABLISHED:
            pendingUpgrades[wsi] = nil
            guard case .server(let configuration, let events, _) = role, !stopping else { return -1 }
            let session = ServiceSession(id: makeID(), client: nil, stage: .open,
                                         maxMessageSize: configuration.maxMessageSize)
            session.wsi = wsi
            // The request's headers are still at hand: a client that offered no extension has none active.
            session.writesFramesItself = !configuration.permessageDeflate
                || lws_hdr_total_length(wsi, WSI_TOKEN_EXTENSIONS) == 0
            sessions[session.id] = session
            lws_set_opaque_user_data(wsi, UnsafeMutableRawPointer(bitPattern: UInt(session.id)))
            events.yield(.connected(ClientID(rawValue: session.id)))
            return 0

        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }

    /// "address:port" of a server connection's peer (IPv6 in brackets), or "an unknown peer".
    private static func peerAddress(of wsi: OpaquePointer) -> String {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = lws_get_socket_fd(wsi)
        let found = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) == 0 }
        }
        guard found else { return "an unknown peer" }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        func numeric(_ text: [CChar]) -> String {
            String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var ip = address.pointee.sin_addr
                    inet_ntop(AF_INET, &ip, &text, socklen_t(text.count))
                    return "\(numeric(text)):\(UInt16(bigEndian: address.pointee.sin_port))"
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var ip = address.pointee.sin6_addr
                    inet_ntop(AF_INET6, &ip, &text, socklen_t(text.count))
                    return "[\(numeric(text))]:\(UInt16(bigEndian: address.pointee.sin6_port))"
                }
            }
        default:
            return "an unknown peer"
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

    /// Never returns non-zero: lws 4.1.6 does not reset its rx buffer when a RECEIVE callback asks to close
    /// in the middle of a frame (client-parser-ws.c returns before `rx_ubuf_head = 0`, and the
    /// permessage-deflate drain path goes on parsing after a positive return), so the next bytes are written
    /// past the buffer. A message that breaks a rule stops reading at once and is closed from WRITEABLE,
    /// outside the parser; whatever lws still hands over until then is dropped.
    private func received(_ session: ServiceSession, wsi: OpaquePointer,
                          input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        guard !session.finished, session.localClose == nil, session.isOpen else { return 0 }
        let chunk = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
        take(session, chunk, final: lws_is_final_fragment(wsi) != 0, binary: lws_frame_is_binary(wsi) != 0,
             wsi: wsi) { Int(clamping: lws_remaining_packet_payload(wsi)) }
        return 0
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

    private func writable(_ session: ServiceSession, wsi: OpaquePointer) -> Int32 {
        guard !session.finished, !session.stalled, !destroying else { return 0 }
        if session.hasOutgoing {
            let (result, bytes): (Int32, Int)
            if session.writesFramesItself {
                (result, bytes) = session.dequeueFrames(upTo: Self.coalescedWriteLimit) { writeFrames($0, to: wsi) }
            } else if let frame = session.dequeue() {
                // lws frames it (and compresses it, with permessage-deflate): one frame per WRITEABLE.
                (result, bytes) = (write(frame, to: wsi), frame.bytes.count)
            } else {
                (result, bytes) = (0, 0)
            }
            if case .server(_, let events, let backlog) = role, backlog.remove(bytes, for: session.id) {
                events.yield(.drained(ClientID(rawValue: session.id)))
            }
            if result < 0 { return -1 }
            if session.hasOutgoing || session.closeRequest != nil { lws_callback_on_writable(wsi) }
            return 0
        }
        if let request = session.closeRequest {
            return closeNow(session, wsi: wsi, code: request.code, text: request.text, cause: request.cause)
        }
        return 0
    }

    /// The most payload `writeFrames` puts in one write (one frame may be larger: it goes alone).
    static let coalescedWriteLimit = 64 * 1024

    /// Writes `frames` with one `lws_write`, framed here: one `send` and one poll round for a burst of messages
    /// rather than one per frame (writing them with one `lws_write` each costs a `send` each, which measured no
    /// better). Only for a server connection without an active extension (`writesFramesItself`): a server's
    /// frames are not masked, so a frame is its header (FIN, opcode, length: RFC 6455 5.2) and its payload.
    /// lws 4.1.6 sends the raw write type on a ws connection as it is (`rops_write_role_protocol_ws` passes the
    /// HTTP types to `lws_issue_raw` before any framing or extension), keeps what the socket did not take and
    /// sends it, and its own control frames, after: the stream stays whole frames in order.
    /// Returns lws_write's result and the payload bytes written.
    private func writeFrames(_ frames: ArraySlice<ServiceSession.Frame>, to wsi: OpaquePointer) -> (Int32, Int) {
        let pre = bc_lws_pre()
        var needed = pre + 1
        var payload = 0
        for frame in frames {
            needed += 10 + frame.bytes.count
            payload += frame.bytes.count
        }
        Self.ensure(&writeBuffer, holds: needed)
        let result = writeBuffer.withUnsafeMutableBufferPointer { buffer -> Int32 in
            let start = buffer.baseAddress! + pre
            var at = start
            for frame in frames {
                at = Self.frameHeader(head: frame.head, length: frame.bytes.count, into: at)
                frame.bytes.withUnsafeBufferPointer { bytes in
                    if let base = bytes.baseAddress { at.update(from: base, count: bytes.count) }
                }
                at += frame.bytes.count
            }
            return lws_write(wsi, start, at - start, LWS_WRITE_HTTP)
        }
        return (result, payload)
    }

    /// Writes an unmasked frame header at `at`; returns where the payload goes.
    static func frameHeader(head: UInt8, length: Int, into at: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        at[0] = head
        if length < 126 {
            at[1] = UInt8(length)
            return at + 2
        }
        if length <= 0xFFFF {
            at[1] = 126
            at[2] = UInt8(truncatingIfNeeded: length >> 8)
            at[3] = UInt8(truncatingIfNeeded: length)
            return at + 4
        }
        at[1] = 127
        for index in 0..<8 { at[2 + index] = UInt8(truncatingIfNeeded: UInt64(length) >> (56 - 8 * index)) }
        return at + 10
    }

    private func write(_ frame: ServiceSession.Frame, to wsi: OpaquePointer) -> Int32 {
        let pre = bc_lws_pre()
        // lws writes its frame header into the LWS_PRE bytes in front of the payload. One buffer for every write
        // of this loop (only its thread writes), grown to the largest frame: not an allocation per frame. lws
        // copies what it cannot send at once, so the buffer is free again when `lws_write` returns.
        let needed = pre + frame.bytes.count + 1
        Self.ensure(&writeBuffer, holds: needed)
        return writeBuffer.withUnsafeMutableBufferPointer { buffer in
            let start = buffer.baseAddress! + pre
            frame.bytes.withUnsafeBufferPointer { bytes in
                if let base = bytes.baseAddress { start.update(from: base, count: bytes.count) }
            }
            return lws_write(wsi, start, frame.bytes.count, lws_write_protocol(rawValue: UInt32(bitPattern: frame.flags)))
        }
    }

    /// A server session lws closed itself with 1007: it checks a client's text byte by byte as it parses
    /// (`LWS_SERVER_OPTION_VALIDATE_UTF8`) and closes at the first bad byte, before any of the message reaches us.
    /// Reported as a refused message like ours (with what had reached the assembler), so the log says why.
    private func reportLwsRefusal(_ session: ServiceSession, wsi: OpaquePointer) {
        guard session.client == nil, !session.finished, session.localClose == nil, session.peerClose == nil,
              lws_get_close_length(wsi) >= 2, let payload = lws_get_close_payload(wsi),
              UInt16(payload[0]) << 8 | UInt16(payload[1]) == 1007 else { return }
        let (held, prefix) = session.assembler.refuseAhead()
        deliver(session, refused: RefusedMessage(reason: .invalidUTF8, binary: false, size: held, prefix: prefix))
        session.localClose = WebSocketCloseReason(code: 1007, text: "invalid UTF-8", initiatedLocally: true,
                                                  cause: .invalidUTF8)
    }

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
    static func sul(of timer: UnsafeMutablePointer<bc_lws_timer_t>) -> UnsafeMutablePointer<lws_sorted_usec_list_t> {
        UnsafeMutableRawPointer(timer).assumingMemoryBound(to: lws_sorted_usec_list_t.self)
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
