import CLibWebSockets

/// The client side over an lws raw socket: lws connects (DNS is ours) and moves the bytes; here the connection's
/// TLS for `wss://` (`ClientTLS`) and its upgrade request (`ClientHandshake`) start, the end of an attempt is
/// reported, and the keepalive runs. Reading and writing frames are shared with the server
/// (ServiceCore+LinkReading.swift, ServiceCore+LinkWriting.swift).
/// Service thread only, like the rest of `ServiceCore`.
extension ServiceCore {
    /// How long our close frame waits for the peer's before the TCP connection is dropped.
    static let closeAnswerDeadline = Duration.seconds(2)

    // MARK: Connected: the upgrade request

    /// RAW_CONNECTED: TCP is up. A `wss://` link starts its TLS handshake; a `ws://` one its upgrade.
    func rawConnected(_ session: ServiceSession, wsi: OpaquePointer) -> Int32 {
        guard !session.finished, session.stage == .connecting, session.link == nil, let client = session.client
        else { return 0 }
        session.wsi = wsi
        guard client.url.isSecure else {
            session.link = FrameLink(tls: nil)
            return beginUpgrade(session, wsi: wsi)
        }
        let made = tlsContext(for: client.configuration.tls).flatMap { context in
            ClientTLS(context: context, host: client.url.host).map { Result.success($0) }
                ?? .failure(.tls("TLS could not start a connection (out of memory?)"))
        }
        switch made {
        case .failure(let failure):
            session.wsi = nil
            finish(session, failed: failure)
            return -1
        case .success(let tls):
            session.link = FrameLink(tls: tls)
            _ = tls.handshake()  // the ClientHello, written at WRITEABLE
            lws_callback_on_writable(wsi)
            return 0
        }
    }

    /// The connection (and its TLS) is up: the upgrade request goes out.
    func beginUpgrade(_ session: ServiceSession, wsi: OpaquePointer) -> Int32 {
        guard let client = session.client, let link = session.link else { return -1 }
        session.stage = .upgrading
        client.deliver(.upgrading)
        var nonce = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in nonce.indices { nonce[index] = generator.next() }
        let handshake = ClientHandshake(nonce: nonce, offersDeflate: client.configuration.permessageDeflate,
                                        subprotocol: client.configuration.subprotocol)
        switch handshake.request(url: client.url, origin: client.configuration.origin) {
        case .failure(let failure):
            session.wsi = nil
            finish(session, failed: failure)
            return -1
        case .success(let request):
            link.begin(request: request, handshake: handshake)
            lws_callback_on_writable(wsi)
            return 0
        }
    }

    /// RAW_CLOSE: the socket is gone. Before the upgrade was answered, that is a failed attempt.
    func rawClosed(_ session: ServiceSession) {
        guard !session.finished else { return }
        if session.isOpen {
            closed(session)
            return
        }
        session.wsi = nil
        if stopping {
            finish(session, failed: .cancelled)
        } else if session.stage == .upgrading {
            finish(session, failed: .other("the server closed the connection before answering the WebSocket upgrade"))
        } else {
            finish(session, failed: session.lastFailure ?? .other("the connection closed before it was established"))
        }
    }

    // MARK: Keepalive

    /// Once a sweep: a ping after `pingInterval` without a pong, the connection dropped after `hangupAfterSilence`.
    /// A link whose reading is paused is skipped: its pongs wait unread, and it is judged again from the resume.
    func keepAlive(_ session: ServiceSession, link: FrameLink, now: ContinuousClock.Instant) {
        guard session.isOpen, !session.finished, session.localClose == nil, !session.readingPaused,
              let wsi = session.wsi, let client = session.client else { return }
        let (ping, hangup) = client.configuration.validitySeconds
        switch link.machine.keepAliveTick(silence: now - session.lastValidity, pingAfter: .seconds(Int(ping)),
                                          hangUpAfter: .seconds(Int(hangup))) {
        case .none: break
        case .ping: lws_callback_on_writable(wsi)
        case .hangUp: bc_lws_kill_async(wsi)
        }
    }
}
