import CLibWebSockets
import Foundation

/// The server side over lws raw sockets: lws listens, accepts, polls and moves the bytes (its listening vhost binds
/// every accepted socket to the raw-socket role), and everything else is done here and in the shared link code
/// (ServiceCore+LinkReading.swift, ServiceCore+LinkWriting.swift): TLS for `wss://` (`ClientTLS` in its server
/// mode), the upgrade request read and answered (`ServerHandshake`), the client's masked frames (`FrameReader`),
/// its compressed messages (`MessageInflater`), ours deflated when agreed (`MessageDeflater`), every ping answered,
/// the close handshake, and a connection that never completes its upgrade reported as `.abandoned`.
/// Service thread only, like the rest of `ServiceCore`.
extension ServiceCore {
    /// After a client broke a rule, the longest the close waits for the consumer to be done with the events
    /// delivered before the fault (`ServerEventFeed`): the server's events reach their consumer on a task, so its
    /// replies come after the fault was read (a client's `onEvent` handler answers on the service thread, before;
    /// see `requestUrgentClose`). Only a consumer that does not read its events makes the close wait this long;
    /// reading stopped at the fault, so the client costs a socket meanwhile.
    static let faultReplyGrace = Duration.seconds(5)

    // MARK: Start-up

    /// The listening vhost's settings: every accepted socket is bound to lws' raw-socket role and our protocol,
    /// so that lws parses nothing of what a client sends.
    func configureListening(_ info: inout lws_context_creation_info, _ configuration: WebSocketServerConfiguration) {
        info.port = Int32(configuration.port)
        info.iface = UnsafePointer(permanentString(configuration.host))
        // No lws TLS: a `wss://` server's TLS is ours (`prepareServerTLS`), so lws sets up no OpenSSL context.
        info.options = LibWebSocketsAssumptions.adoptListenAcceptOption
        info.listen_accept_role = UnsafePointer(permanentString(LibWebSocketsAssumptions.listenAcceptRole))
        info.listen_accept_protocol = UnsafePointer(permanentString(Self.protocolName))
        info.pt_serv_buf_size = Self.readSize
        if AddressResolver.isIPv4(configuration.host) {
            info.options |= bc_lws_option_disable_ipv6()
        }
    }

    /// Loads a `wss://` server's certificate and key; what is wrong with them, or nil (also for a `ws://` server).
    func prepareServerTLS() -> String? {
        guard case .server(let configuration, _, _) = role, let tls = configuration.tls else { return nil }
        if let problem = Self.unusableTLSFiles(tls) { return problem }
        switch ServerTLSContext.make(tls) {
        case .failure(let failure):
            return failure.description
        case .success(let context):
            serverTLSContext = context
            return nil
        }
    }

    /// Why a server's TLS files cannot be used, told before OpenSSL's own checks: a file that cannot be read or
    /// is not PEM at all.
    private static func unusableTLSFiles(_ tls: WebSocketServerConfiguration.TLS) -> String? {
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

    // MARK: Accepted: the upgrade

    /// RAW_ADOPT: a connection was accepted. Its session lives from now; it has `handshakeTimeout` to complete its
    /// upgrade. Non-zero makes lws close the socket at once (the loop is stopping, or no memory for its TLS).
    func rawAdopted(wsi: OpaquePointer) -> Int32 {
        guard case .server(let configuration, _, _) = role, !stopping else { return -1 }
        var tls: ClientTLS?
        if let context = serverTLSContext {
            guard let made = ClientTLS(serverContext: context) else { return -1 }
            tls = made
        }
        let session = ServiceSession(id: makeID(), client: nil, stage: .upgrading,
                                     maxMessageSize: configuration.maxMessageSize)
        session.wsi = wsi
        session.peer = Self.peerAddress(of: wsi)
        session.link = FrameLink(tls: tls, server: ServerHandshake(acceptsDeflate: configuration.permessageDeflate))
        sessions[session.id] = session
        lws_set_opaque_user_data(wsi, UnsafeMutableRawPointer(bitPattern: UInt(session.id)))
        startTimer(session, after: configuration.handshakeTimeout)
        return 0
    }

    /// Reads the upgrade request from `chunk`. Returns how many of its bytes the request took once it is agreed
    /// (the rest are frames), nil while it waits for more or once it is refused (its answer written, then the
    /// socket closed).
    func readUpgradeRequest(_ session: ServiceSession, link: FrameLink, wsi: OpaquePointer,
                            _ handshake: inout ServerHandshake, _ chunk: UnsafeRawBufferPointer) -> Int? {
        switch handshake.consume(chunk) {
        case .needMore:
            link.upgrade = .awaitingRequest(handshake)
            return nil
        case .refused(let answer, _):
            link.upgrade = .refused
            link.handshakeOut = answer
            lws_rx_flow_control(wsi, 0)
            lws_callback_on_writable(wsi)
            return nil
        case .accepted(let deflate, let answer, let consumed):
            link.handshakeOut = answer
            link.reader = FrameReader(role: .server, deflate: deflate != nil)
            if let deflate {
                link.deflater = MessageDeflater(windowBits: deflate.serverMaxWindowBits,
                                                noContextTakeover: deflate.serverNoContextTakeover)
            }
            _ = opened(session, wsi: wsi)
            lws_callback_on_writable(wsi)  // the answer
            if case .server(_, let events, _) = role { events.yield(.connected(ClientID(rawValue: session.id))) }
            return consumed
        }
    }

    /// The wait after a client's fault is over (its consumer handled what came before it, or `faultReplyGrace`
    /// passed): the close is decided now, after what is queued.
    func faultWaitEnded(_ session: ServiceSession) {
        guard !session.finished, session.isOpen, session.closeUrgently, session.closeRequest == nil,
              let fault = session.localClose else { return }
        decideClose(session, code: fault.code, text: fault.text, cause: fault.cause, discardingQueued: false)
        retireTimer(of: session)
        startTimer(session, after: Self.urgentCloseDeadline)
    }

    /// The handshake deadline passed before the upgrade was agreed: the socket is dropped (and reported as
    /// abandoned when it closes).
    func upgradeTimedOut(_ session: ServiceSession) {
        if let wsi = session.wsi { bc_lws_kill_async(wsi) }
    }

    /// RAW_CLOSE of an accepted connection: a client that was connected is disconnected; one that never completed
    /// its upgrade is reported as abandoned (not while the server stops: then every connection goes).
    func serverClosed(_ session: ServiceSession) {
        guard !session.finished else { return }
        if session.isOpen {
            closed(session)
            return
        }
        let after = ContinuousClock.now - session.startedAt
        session.wsi = nil
        finish(session, failed: .cancelled)  // forgets it: a server's session has no one to tell
        if !stopping, case .server(_, let events, _) = role {
            events.yield(.abandoned(peer: session.peer, after: after))
        }
    }

    // MARK: Writing

    /// A server's data frames, unmasked (deflated when agreed), with one `lws_write`; the bytes they held leave
    /// the client's backlog, and `.drained` tells when it fell under its low water.
    func writeServerFrames(_ frames: ArraySlice<ServiceSession.Frame>, session: ServiceSession, link: FrameLink,
                           to wsi: OpaquePointer) -> Int32 {
        var payload = 0
        for frame in frames { payload += frame.bytes.count }
        let result: Int32
        if let deflater = link.deflater {
            result = writeDeflatedFrames(frames, deflater: deflater, link: link, to: wsi)
        } else {
            result = writeWithRoom(payload + frames.count * FrameWriter.overhead, link: link, to: wsi) { at in
                var end = at
                for frame in frames {
                    end = frame.bytes.withUnsafeBytes { FrameWriter.write(head: frame.head, payload: $0, mask: nil, into: end) }
                }
                return end
            }
        }
        if case .server(_, let events, let backlog) = role, backlog.remove(payload, for: session.id) {
            events.yield(.drained(ClientID(rawValue: session.id)))
        }
        return result
    }

    /// Each frame deflated (RSV1 on a message's first), framed into `deflateStaging`, then written at once.
    private func writeDeflatedFrames(_ frames: ArraySlice<ServiceSession.Frame>, deflater: MessageDeflater,
                                     link: FrameLink, to wsi: OpaquePointer) -> Int32 {
        deflateStaging.removeAll(keepingCapacity: true)
        var header = [UInt8](repeating: 0, count: FrameWriter.overhead)
        for frame in frames {
            let deflated = frame.bytes.withUnsafeBytes {
                deflater.deflate($0, endsMessage: frame.head & 0x80 != 0, into: &deflateOutput)
            }
            guard deflated else { return -1 }
            let head = frame.head & 0x0F == 0 ? frame.head : frame.head | 0x40
            let length = header.withUnsafeMutableBufferPointer { buffer in
                FrameWriter.header(head: head, length: deflateOutput.count, into: buffer.baseAddress!) - buffer.baseAddress!
            }
            deflateStaging.append(contentsOf: header[..<length])
            deflateStaging.append(contentsOf: deflateOutput)
        }
        return writeRaw(deflateStaging, link: link, to: wsi)
    }

    // MARK: Helpers

    /// "address:port" of a server connection's peer (IPv6 in brackets), or "an unknown peer".
    static func peerAddress(of wsi: OpaquePointer) -> String {
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
}
