import CLibWebSockets
import Foundation

/// The client connector: a session's connect deadline, its numeric addresses tried in order while they refuse (DNS
/// is ours, `AddressResolver`), each a raw socket lws connects (`lws_client_connect_via_info`), and what lws says
/// when the TCP connect fails. From the connected socket on, the link is ServiceCore+ClientLink.swift's.
/// Service thread only, like the rest of `ServiceCore`.
extension ServiceCore {
    func startConnectTimer(_ session: ServiceSession, after timeout: Duration) {
        startTimer(session, after: timeout)
    }

    /// The session's one timer: the connect deadline before it opens, the close deadline after
    /// (ServiceCore+Closing.swift, ServiceCore+ClientLink.swift).
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

    /// The session's timer fired before it opened: its `connectTimeout` (DNS through the upgrade's answer) is over.
    func connectDeadlinePassed(_ session: ServiceSession) {
        guard let client = session.client, !session.isOpen else { return }
        if let wsi = session.wsi { bc_lws_kill_async(wsi) }
        session.wsi = nil
        let after = client.configuration.connectTimeout
        finish(session, failed: session.stage == .upgrading ? .handshakeTimedOut(after: after) : .timedOut(after: after))
    }

    func connectNextAddress(_ session: ServiceSession) {
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

    func connectionError(_ session: ServiceSession, wsi: OpaquePointer,
                                 input: UnsafeMutableRawPointer?, length: Int) {
        guard !session.finished, let client = session.client else { return }
        if session.inConnectCall { session.errorDuringConnectCall = true }
        if stopping {
            finish(session, failed: .cancelled)
            return
        }
        // Only TCP comes here: a client's TLS and upgrade are ours (ServiceCore+ClientLink.swift).
        let failure = ConnectFailureClassifier.classify(message: Self.text(input, length),
                                                        elapsed: ContinuousClock.now - session.startedAt)
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
}
