import CLibWebSockets
import Foundation
import Synchronization

/// HTTP(S) GET over libwebsockets, the library the WebSocket client already uses: the same OpenSSL, the same
/// certificate checks (`WebSocketClientConfiguration.TLS`: system store, a `caFile`, or insecure), no other
/// dependency. Meant for a few small REST answers (a live's info, a profile), not for bulk transfer.
///
/// Redirects are not followed (an answer in 3xx is returned as it is), HTTP/1.1 only, and the body is capped
/// (`HTTPFetchRequest.maxBodySize`): the server is not trusted. A timeout or a cancellation answers at once;
/// the connection is closed behind it.
///
/// Every fetch of the process runs on one lws context and its thread (`HTTPFetchService`), created at the first
/// fetch and kept: lws 4.1.6 takes new OpenSSL ex-data indexes for the whole process each time a context is
/// created with `LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT`, which fails any TLS handshake in flight in another
/// context at that moment (docs/DESIGN.md). One context for all fetches creates it once; a fetch whose handshake
/// another creation lost is tried again (`ContextCreation`).
public enum HTTPFetcher {
    /// Performs one GET. Any HTTP status is an answer; only the lack of one throws.
    public static func fetch(_ request: HTTPFetchRequest) async throws(HTTPFetchFailure) -> HTTPFetchResponse {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = request.url.host(percentEncoded: false), !host.isEmpty else {
            throw .invalidURL(request.url.absoluteString)
        }
        let service = HTTPFetchService.shared
        let ticket = HTTPFetchTicket(id: service.makeID())
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPFetchResponse, HTTPFetchFailure>, Never>) in
                service.submit(.start(HTTPFetchJob(ticket: ticket, request: request, host: host,
                                                   secure: scheme == "https", continuation: continuation)))
            }
        } onCancel: {
            // The flag covers a cancellation that comes before the start reaches the service thread.
            ticket.cancel()
            service.submit(.cancel(ticket.id))
        }
        return try result.get()
    }
}

/// A fetch's id, and whether its task was cancelled (read by the service thread when it starts the fetch).
final class HTTPFetchTicket: Sendable {
    let id: UInt64
    private let cancelled = Atomic<Bool>(false)

    init(id: UInt64) { self.id = id }

    func cancel() { cancelled.store(true, ordering: .sequentiallyConsistent) }
    var isCancelled: Bool { cancelled.load(ordering: .sequentiallyConsistent) }
}

/// What a caller hands the service thread to start a fetch.
struct HTTPFetchJob: Sendable {
    let ticket: HTTPFetchTicket
    let request: HTTPFetchRequest
    let host: String
    let secure: Bool
    let continuation: CheckedContinuation<Result<HTTPFetchResponse, HTTPFetchFailure>, Never>
}

enum HTTPFetchCommand: Sendable {
    case start(HTTPFetchJob)
    case cancel(UInt64)
    /// Another attempt of a fetch whose handshake a context creation may have lost (posted by the service thread
    /// itself, from the failed connection's callback).
    case retry(UInt64)
}

/// The process's one lws context for HTTP fetches, serviced by a thread of its own for the life of the process
/// (like `WebSocketLoop.shared`, never shut down).
///
/// Threading invariant (the reason for `@unchecked Sendable`): everything below `mailbox` and `nextID` is
/// touched only on the service thread: in `run()`, in lws callbacks (which lws makes from inside `lws_service`
/// on that thread) and in the sul timer callbacks (same). Other threads only append to `mailbox` under its
/// `Mutex` and call `lws_cancel_service` (which lws allows from any thread) while holding that lock; the
/// context is never destroyed, so that call cannot race its destruction.
final class HTTPFetchService: @unchecked Sendable {
    static let shared = HTTPFetchService()

    private struct Mailbox {
        var commands: [HTTPFetchCommand] = []
        /// The context's address once it exists (`OpaquePointer` is not `Sendable`).
        var contextAddress: UInt = 0
        var threadStarted = false
        /// Set when the context could not be created: every fetch fails at once with it.
        var startFailure: HTTPFetchFailure?
    }
    private let mailbox = Mutex(Mailbox())
    private let nextID = Atomic<UInt64>(1)

    // Service thread only.
    private var context: OpaquePointer?
    private var protocols: UnsafeMutablePointer<lws_protocols>?
    /// Client vhosts by the CA file they trust ("" is the system store, the context's own vhost).
    private var vhosts: [String: OpaquePointer] = [:]
    private var exchanges: [UInt64: HTTPExchange] = [:]
    /// Timers of finished exchanges, freed after the current service pass (never inside their own callback).
    private var retiredTimers: [UnsafeMutablePointer<bc_lws_timer_t>] = []
    /// Strings lws keeps pointers to (protocol and vhost names, CA paths): kept for the life of the process.
    private var permanentStrings: [UnsafeMutablePointer<CChar>] = []

    private static let protocolName = "bc-http"

    func makeID() -> UInt64 {
        nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// Queues a command and wakes the service thread, starting it at the first command.
    func submit(_ command: HTTPFetchCommand) {
        let (startThread, failure) = mailbox.withLock { box -> (Bool, HTTPFetchFailure?) in
            if let failure = box.startFailure { return (false, failure) }
            box.commands.append(command)
            if box.commands.count == 1, let context = OpaquePointer(bitPattern: box.contextAddress) {
                lws_cancel_service(context)
            }
            defer { box.threadStarted = true }
            return (!box.threadStarted, nil)
        }
        if let failure, case .start(let job) = command {
            job.continuation.resume(returning: .failure(failure))
        }
        if startThread {
            let thread = Thread { [self] in self.run() }
            thread.name = "BCWebSocket.http"
            thread.start()
        }
    }

    // MARK: Service thread

    private func run() {
        lws_set_log_level(ServiceCore.logLevel, nil)
        let protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 2)
        protocols.initialize(repeating: lws_protocols(), count: 2)
        protocols[0].name = UnsafePointer(permanentString(Self.protocolName))
        protocols[0].callback = bcHTTPFetchCallback
        self.protocols = protocols

        var info = lws_context_creation_info()
        info.protocols = UnsafePointer(protocols)
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.options = bc_lws_option_ssl_global_init()
        info.gid = -1
        info.uid = -1
        info.port = bc_lws_port_no_listen()
        info.vhost_name = UnsafePointer(permanentString("bc-http-0"))
        // Each fetch has its own deadline; lws' own timeouts only clean up connections left behind.
        info.timeout_secs = ServiceCore.lwsHandshakeTimeoutSeconds
        info.connect_timeout_secs = ServiceCore.lwsHandshakeTimeoutSeconds
        guard let context = ContextCreation.create(&info) else {
            let failure = HTTPFetchFailure.other("libwebsockets could not create its HTTP client context")
            let commands = mailbox.withLock { box in
                box.startFailure = failure
                defer { box.commands = [] }
                return box.commands
            }
            for case .start(let job) in commands { job.continuation.resume(returning: .failure(failure)) }
            return
        }
        self.context = context
        vhosts[""] = lws_get_vhost_by_name(context, "bc-http-0")
        mailbox.withLock { $0.contextAddress = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(context))) }
        drainCommands()
        while true {
            _ = lws_service(context, 0)
            for timer in retiredTimers { timer.deallocate() }
            retiredTimers = []
        }
    }

    fileprivate func drainCommands() {
        let commands = mailbox.withLock { box in
            defer { box.commands = [] }
            return box.commands
        }
        for command in commands {
            switch command {
            case .start(let job): start(job)
            case .cancel(let id): if let exchange = exchanges[id] { finish(exchange, .failure(.cancelled)) }
            case .retry(let id): if let exchange = exchanges[id], let vhost = exchange.vhost { connect(exchange, vhost: vhost) }
            }
        }
    }

    private func start(_ job: HTTPFetchJob) {
        guard let context else { return }
        if job.ticket.isCancelled {
            job.continuation.resume(returning: .failure(.cancelled))
            return
        }
        let tls = job.request.tls
        if job.secure, !tls.insecure, let caFile = tls.caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            job.continuation.resume(returning: .failure(.tls("cannot read the CA file \(caFile)")))
            return
        }
        guard let vhost = vhost(caFile: job.secure && !tls.insecure ? tls.caFile ?? "" : "") else {
            job.continuation.resume(returning: .failure(
                .tls("could not set up TLS with CA file \(tls.caFile ?? "(system)") (is it a PEM file?)")))
            return
        }
        let exchange = HTTPExchange(job: job)
        exchanges[exchange.id] = exchange

        let timer = UnsafeMutablePointer<bc_lws_timer_t>.allocate(capacity: 1)
        timer.initialize(to: bc_lws_timer_t())
        timer.pointee.session_id = exchange.id
        timer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        exchange.timer = timer
        lws_sul_schedule(context, 0, Self.sul(of: timer), bcHTTPFetchTimer, Self.microseconds(job.request.timeout))
        connect(exchange, vhost: vhost)
    }

    /// One connection attempt for `exchange`; the first, or another after a handshake lost to a context
    /// created elsewhere (see `ContextCreation`).
    private func connect(_ exchange: HTTPExchange, vhost: OpaquePointer) {
        guard let context else { return }
        let job = exchange.job
        let tls = job.request.tls
        exchange.vhost = vhost
        exchange.closed = false
        var temporary: [UnsafeMutablePointer<CChar>] = []
        defer { for text in temporary { free(text) } }
        func cString(_ text: String) -> UnsafePointer<CChar>? {
            guard let copy = strdup(text) else { return nil }
            temporary.append(copy)
            return UnsafePointer(copy)
        }
        let url = job.request.url
        let defaultPort = job.secure ? 443 : 80
        let port = url.port ?? defaultPort
        var path = url.path(percentEncoded: true)
        if path.isEmpty { path = "/" }
        if let query = url.query(percentEncoded: true) { path += "?" + query }
        let bracketed = job.host.contains(":") ? "[\(job.host)]" : job.host

        var connection = lws_client_connect_info()
        connection.context = context
        connection.vhost = vhost
        connection.address = cString(job.host)
        connection.port = Int32(port)
        connection.path = cString(path)
        connection.host = cString(port == defaultPort ? bracketed : "\(bracketed):\(port)")
        connection.method = cString("GET")
        connection.local_protocol_name = cString(Self.protocolName)
        connection.opaque_user_data = UnsafeMutableRawPointer(bitPattern: UInt(exchange.id))
        connection.ssl_connection = bc_lws_ccflag_no_follow_redirect()
        if job.secure {
            connection.ssl_connection |= bc_lws_ccflag_use_ssl()
            if tls.insecure { connection.ssl_connection |= bc_lws_ccflag_insecure() }
            connection.alpn = cString("http/1.1")
        }
        // lws copies the strings. It may call CLIENT_CONNECTION_ERROR before returning, which finishes the
        // exchange with its reason.
        exchange.contextGeneration = ContextCreation.generation
        let wsi = lws_client_connect_via_info(&connection)
        guard exchanges[exchange.id] === exchange, !exchange.closed else { return }
        if let wsi {
            exchange.wsi = wsi
        } else {
            finish(exchange, .failure(.unreachable("lws could not start a connection to \(job.host):\(port)")))
        }
    }

    private func vhost(caFile: String) -> OpaquePointer? {
        if let vhost = vhosts[caFile] { return vhost }
        guard let context else { return nil }
        var info = lws_context_creation_info()
        info.port = bc_lws_port_no_listen()
        info.protocols = UnsafePointer(protocols)
        info.options = bc_lws_option_ssl_global_init()
        info.gid = -1
        info.uid = -1
        info.vhost_name = UnsafePointer(permanentString("bc-http-\(vhosts.count)"))
        info.client_ssl_ca_filepath = UnsafePointer(permanentString(caFile))
        guard let vhost = lws_create_vhost(context, &info) else { return nil }
        vhosts[caFile] = vhost
        return vhost
    }

    /// Ends an exchange once: answers its caller, stops its timer, and closes its connection if it is still
    /// open (a later callback of that connection finds no exchange and closes it).
    private func finish(_ exchange: HTTPExchange, _ result: Result<HTTPFetchResponse, HTTPFetchFailure>) {
        guard exchanges.removeValue(forKey: exchange.id) != nil else { return }
        if let timer = exchange.timer {
            lws_sul_cancel(Self.sul(of: timer))
            retiredTimers.append(timer)
            exchange.timer = nil
        }
        if let wsi = exchange.wsi, !exchange.closed { bc_lws_kill_async(wsi) }
        exchange.job.continuation.resume(returning: result)
    }

    private func exchange(of wsi: OpaquePointer) -> HTTPExchange? {
        guard let raw = lws_get_opaque_user_data(wsi) else { return nil }
        return exchanges[UInt64(UInt(bitPattern: raw))]
    }

    fileprivate func timerFired(id: UInt64) {
        guard let exchange = exchanges[id] else { return }
        finish(exchange, .failure(.timedOut(exchange.job.request.timeout)))
    }

    fileprivate func handle(wsi: OpaquePointer, reason: lws_callback_reasons,
                            input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            drainCommands()
            return 0
        case LWS_CALLBACK_OPENSSL_PERFORM_SERVER_CERT_VERIFICATION:
            // `length` is OpenSSL's preverify_ok for one certificate of the chain; lws decides (0).
            if length == 0 { exchange(of: wsi)?.certificateRejected = true }
            return 0
        case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
            guard let exchange = exchange(of: wsi) else { return -1 }
            return appendHeaders(exchange.job.request.headers, wsi: wsi, input: input, length: length)
        case LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP:
            guard let exchange = exchange(of: wsi) else { return -1 }
            exchange.status = Int(lws_http_client_http_response(wsi))
            return 0
        case LWS_CALLBACK_RECEIVE_CLIENT_HTTP:
            guard exchange(of: wsi) != nil else { return -1 }
            // lws has body bytes for us: have it hand them over (RECEIVE_CLIENT_HTTP_READ), chunking removed.
            let capacity = 4096
            let pre = bc_lws_pre()
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: pre + capacity) { buffer in
                var pointer: UnsafeMutablePointer<CChar>? = buffer.baseAddress.map { $0 + pre }
                var size = Int32(capacity)
                return lws_http_client_read(wsi, &pointer, &size) < 0 ? -1 : 0
            }
        case LWS_CALLBACK_RECEIVE_CLIENT_HTTP_READ:
            guard let exchange = exchange(of: wsi) else { return -1 }
            guard let input, length > 0 else { return 0 }
            let limit = exchange.job.request.maxBodySize
            if exchange.body.count + length > limit {
                finish(exchange, .failure(.bodyTooLarge(limit: limit)))
                return -1
            }
            exchange.body.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
            return 0
        case LWS_CALLBACK_COMPLETED_CLIENT_HTTP:
            guard let exchange = exchange(of: wsi) else { return -1 }
            exchange.closed = true  // closed by the -1 below
            finish(exchange, .success(HTTPFetchResponse(status: exchange.status, body: exchange.body)))
            return -1
        case LWS_CALLBACK_CLOSED_CLIENT_HTTP:
            if let exchange = exchange(of: wsi) {
                exchange.closed = true
                finish(exchange, .failure(.truncated))
            }
            return 0
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            guard let exchange = exchange(of: wsi) else { return 0 }
            exchange.closed = true
            let message = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
            let status = Int(lws_http_client_http_response(wsi))
            if status > 0 {
                // lws 4.1 reports some statuses (401 among them) as a connection error; still an answer.
                finish(exchange, .success(HTTPFetchResponse(status: status, body: [])))
            } else if exchange.vhost != nil,
                      ContextCreation.retries(secure: exchange.job.secure,
                                              certificateRejected: exchange.certificateRejected,
                                              retriedSoFar: exchange.retriesAfterCreation,
                                              startedAt: exchange.contextGeneration) {
                // A context created elsewhere during the handshake may have failed it: try once more, from the
                // service loop, not from inside this connection's callback (or its lws_client_connect_via_info).
                exchange.retriesAfterCreation += 1
                exchange.wsi = nil
                mailbox.withLock { $0.commands.append(.retry(exchange.id)) }
                lws_cancel_service(context)
            } else {
                finish(exchange, .failure(Self.classify(message, secure: exchange.job.secure,
                                                        certificateRejected: exchange.certificateRejected,
                                                        host: exchange.job.host)))
            }
            return 0
        default:
            return 0
        }
    }

    private func appendHeaders(_ headers: [HTTPFetchRequest.Header], wsi: OpaquePointer,
                               input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        guard let input else { return 0 }
        let position = input.assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
        guard let start = position.pointee else { return 0 }
        let end = start + length
        for header in [HTTPFetchRequest.Header(name: "accept", value: "application/json")] + headers {
            let name = Array((header.name.lowercased() + ":").utf8) + [0]
            let value = Array(header.value.utf8)
            let failed = name.withUnsafeBufferPointer { name in
                value.withUnsafeBufferPointer { value in
                    lws_add_http_header_by_name(wsi, name.baseAddress, value.baseAddress, Int32(value.count),
                                                position, end)
                }
            }
            if failed != 0 { return -1 }
        }
        return 0
    }

    static func classify(_ message: String, secure: Bool, certificateRejected: Bool, host: String) -> HTTPFetchFailure {
        let lower = message.lowercased()
        if secure, certificateRejected {
            return .tls("server certificate not trusted (unknown issuer, wrong host name or expired); lws: \(message)")
        }
        if secure, ["ssl", "tls", "certificate", "verify", "x509", "handshake"].contains(where: lower.contains) {
            return .tls(message)
        }
        if ["refused", "unable to connect", "connect failed", "unreachable", "conn fail", "errno", "dns", "resolve",
            "getaddrinfo", "hung up"].contains(where: lower.contains) {
            return .unreachable("\(host): \(message)")
        }
        return .other(message.isEmpty ? "libwebsockets gave no reason" : "lws: \(message)")
    }

    private func permanentString(_ text: String) -> UnsafeMutablePointer<CChar>? {
        guard let copy = strdup(text) else { return nil }
        permanentStrings.append(copy)
        return copy
    }

    private static func sul(of timer: UnsafeMutablePointer<bc_lws_timer_t>) -> UnsafeMutablePointer<lws_sorted_usec_list_t> {
        UnsafeMutableRawPointer(timer).assumingMemoryBound(to: lws_sorted_usec_list_t.self)
    }

    private static func microseconds(_ duration: Duration) -> lws_usec_t {
        let (seconds, attoseconds) = duration.components
        return lws_usec_t(clamping: max(1, seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
    }
}

/// One fetch in progress, on the service thread only: what came back so far.
private final class HTTPExchange {
    let job: HTTPFetchJob
    var id: UInt64 { job.ticket.id }
    var wsi: OpaquePointer?
    var timer: UnsafeMutablePointer<bc_lws_timer_t>?
    var status = 0
    var body: [UInt8] = []
    var certificateRejected = false
    /// The vhost it connects through, kept for another attempt.
    var vhost: OpaquePointer?
    /// `ContextCreation.generation` when the current attempt began, and the attempts made again after a
    /// handshake lost to a context creation.
    var contextGeneration: UInt64 = 0
    var retriesAfterCreation = 0
    /// lws closed (or is closing) the connection itself: nothing to kill.
    var closed = false

    init(job: HTTPFetchJob) { self.job = job }
}

/// The protocol callback of the fetch context; finds the service through the context's user pointer (the
/// service lives as long as the process).
private func bcHTTPFetchCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let raw = lws_context_user(context) else { return 0 }
    let service = Unmanaged<HTTPFetchService>.fromOpaque(raw).takeUnretainedValue()
    return service.handle(wsi: wsi, reason: reason, input: input, length: length)
}

/// A fetch's deadline: the sul is the first member of `bc_lws_timer_t`.
private func bcHTTPFetchTimer(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let timer = bc_lws_timer_from_sul(sul), let owner = timer.pointee.owner else { return }
    Unmanaged<HTTPFetchService>.fromOpaque(owner).takeUnretainedValue().timerFired(id: timer.pointee.session_id)
}
