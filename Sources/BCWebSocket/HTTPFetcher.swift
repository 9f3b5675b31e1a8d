import CLibWebSockets
import Foundation
import Synchronization

/// HTTP(S) GET over libwebsockets, the library the WebSocket client already uses: the same OpenSSL, the same
/// certificate checks (`WebSocketClientConfiguration.TLS`: system store, a `caFile`, or insecure), no other
/// dependency. Meant for a few small REST answers (a live's info, a profile), not for bulk transfer: each fetch
/// runs on a context and thread of its own, torn down when it ends.
///
/// Redirects are not followed (an answer in 3xx is returned as it is), HTTP/1.1 only, and the body is capped
/// (`HTTPFetchRequest.maxBodySize`): the server is not trusted. A timeout or a cancellation ends the service
/// loop at once; destroying the context closes the connection.
///
/// A limit of lws 4.1.6: every context created with `LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT` (each fetch, each
/// `WebSocketLoop`, each `WebSocketServer`) takes new OpenSSL ex-data indexes for the whole process, so a TLS
/// handshake in flight in another context at that moment fails its certificate check. `bcstream listen` never
/// overlaps the two (it fetches before connecting, or once subscribed, and polls while no live is followed);
/// docs/DESIGN.md tells the way out (one long-lived context for all fetches, or lws 4.3).
public enum HTTPFetcher {
    /// Performs one GET. Any HTTP status is an answer; only the lack of one throws.
    public static func fetch(_ request: HTTPFetchRequest) async throws(HTTPFetchFailure) -> HTTPFetchResponse {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = request.url.host(percentEncoded: false), !host.isEmpty else {
            throw .invalidURL(request.url.absoluteString)
        }
        let exchange = HTTPExchange(request: request, host: host, secure: scheme == "https")
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPFetchResponse, HTTPFetchFailure>, Never>) in
                let thread = Thread {
                    continuation.resume(returning: exchange.run())
                }
                thread.name = "BCWebSocket.http"
                thread.start()
            }
        } onCancel: {
            exchange.cancel()
        }
        return try result.get()
    }
}

/// One fetch: its lws context, serviced by the thread `HTTPFetcher.fetch` starts, and what came back. Every
/// mutable field is in `state` (a `Mutex`): lws calls back on the service thread, `cancel()` comes from any.
private final class HTTPExchange: Sendable {
    private let request: HTTPFetchRequest
    private let host: String
    private let secure: Bool

    private struct State {
        /// Set while the context lives, so that `cancel()` can wake its service call; nil before it is destroyed.
        /// Kept as an address: `OpaquePointer` is not `Sendable`; `cancel()` only passes it to
        /// `lws_cancel_service`, which lws allows from any thread, and only while this is set (under the lock).
        var contextAddress: UInt = 0
        var context: OpaquePointer? { OpaquePointer(bitPattern: contextAddress) }
        var status = 0
        var body: [UInt8] = []
        var failure: HTTPFetchFailure?
        var completed = false
        /// Nothing more will come: the service loop ends.
        var done = false
        var cancelRequested = false
        var certificateRejected = false
    }
    private let state = Mutex(State())

    init(request: HTTPFetchRequest, host: String, secure: Bool) {
        self.request = request
        self.host = host
        self.secure = secure
    }

    func cancel() {
        state.withLock { state in
            state.cancelRequested = true
            if let context = state.context { lws_cancel_service(context) }
        }
    }

    /// Runs the exchange on the calling thread, start to end.
    func run() -> Result<HTTPFetchResponse, HTTPFetchFailure> {
        lws_set_log_level(ServiceCore.logLevel, nil)
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer { for text in strings { free(text) } }
        func cString(_ text: String) -> UnsafePointer<CChar>? {
            guard let copy = strdup(text) else { return nil }
            strings.append(copy)
            return UnsafePointer(copy)
        }

        let protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 2)
        protocols.initialize(repeating: lws_protocols(), count: 2)
        defer { protocols.deallocate() }
        protocols[0].name = cString(Self.protocolName)
        protocols[0].callback = bcHTTPFetchCallback

        let timeoutSeconds = UInt32(clamping: max(1, request.timeout.components.seconds + 1))
        var info = lws_context_creation_info()
        info.protocols = UnsafePointer(protocols)
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.options = bc_lws_option_ssl_global_init()
        info.gid = -1
        info.uid = -1
        info.port = bc_lws_port_no_listen()
        info.timeout_secs = timeoutSeconds
        info.connect_timeout_secs = timeoutSeconds
        if secure, !request.tls.insecure, let caFile = request.tls.caFile {
            info.client_ssl_ca_filepath = cString(caFile)
        }
        guard let context = lws_create_context(&info) else {
            if secure, let caFile = request.tls.caFile {
                return .failure(.tls("could not set up TLS with CA file \(caFile) (is it a readable PEM file?)"))
            }
            return .failure(.other("lws_create_context failed"))
        }
        let cancelledAlready = state.withLock { state in
            state.contextAddress = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(context)))
            return state.cancelRequested
        }

        // The deadline: a sul timer on the context, whose callback finds this exchange through `owner`.
        let timer = UnsafeMutablePointer<bc_lws_timer_t>.allocate(capacity: 1)
        timer.initialize(to: bc_lws_timer_t())
        timer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        defer { timer.deallocate() }
        let sul = UnsafeMutableRawPointer(timer).assumingMemoryBound(to: lws_sorted_usec_list_t.self)
        lws_sul_schedule(context, 0, sul, bcHTTPFetchTimer, Self.microseconds(request.timeout))

        if cancelledAlready {
            state.withLock { $0.failure = .cancelled; $0.done = true }
        } else {
            connect(context: context, cString: cString)
        }
        while !state.withLock({ $0.done }) {
            if lws_service(context, 0) < 0 { break }
        }
        lws_sul_cancel(sul)
        state.withLock { $0.contextAddress = 0 }
        lws_context_destroy(context)

        return state.withLock { state in
            if let failure = state.failure { return .failure(failure) }
            if state.completed {
                return .success(HTTPFetchResponse(status: state.status, body: state.body))
            }
            return .failure(.truncated)
        }
    }

    private func connect(context: OpaquePointer, cString: (String) -> UnsafePointer<CChar>?) {
        let url = request.url
        let defaultPort = secure ? 443 : 80
        let port = url.port ?? defaultPort
        var path = url.path(percentEncoded: true)
        if path.isEmpty { path = "/" }
        if let query = url.query(percentEncoded: true) { path += "?" + query }
        let bracketed = host.contains(":") ? "[\(host)]" : host

        var connection = lws_client_connect_info()
        connection.context = context
        connection.address = cString(host)
        connection.port = Int32(port)
        connection.path = cString(path)
        connection.host = cString(port == defaultPort ? bracketed : "\(bracketed):\(port)")
        connection.method = cString("GET")
        connection.local_protocol_name = cString(Self.protocolName)
        connection.ssl_connection = bc_lws_ccflag_no_follow_redirect()
        if secure {
            connection.ssl_connection |= bc_lws_ccflag_use_ssl()
            if request.tls.insecure { connection.ssl_connection |= bc_lws_ccflag_insecure() }
            connection.alpn = cString("http/1.1")
        }
        // lws may call CLIENT_CONNECTION_ERROR before returning, which ends the exchange with its reason.
        if lws_client_connect_via_info(&connection) == nil {
            state.withLock { state in
                guard !state.done else { return }
                if state.failure == nil { state.failure = .unreachable("lws could not start a connection to \(host):\(port)") }
                state.done = true
            }
        }
    }

    // MARK: Service thread: lws callbacks

    fileprivate func handle(wsi: OpaquePointer, reason: lws_callback_reasons,
                            input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            // `cancel()` woke the service call: stop servicing; destroying the context closes the connection.
            state.withLock { state in
                guard state.cancelRequested, !state.done else { return }
                if state.failure == nil { state.failure = .cancelled }
                state.done = true
            }
            return 0
        case LWS_CALLBACK_OPENSSL_PERFORM_SERVER_CERT_VERIFICATION:
            // `length` is OpenSSL's preverify_ok for one certificate of the chain; lws decides (0).
            if length == 0 { state.withLock { $0.certificateRejected = true } }
            return 0
        case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
            return appendHeaders(wsi: wsi, input: input, length: length)
        case LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP:
            let status = Int(lws_http_client_http_response(wsi))
            state.withLock { $0.status = status }
            return 0
        case LWS_CALLBACK_RECEIVE_CLIENT_HTTP:
            // lws has body bytes for us: have it hand them over (RECEIVE_CLIENT_HTTP_READ), chunking removed.
            let capacity = 4096
            let pre = bc_lws_pre()
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: pre + capacity) { buffer in
                var pointer: UnsafeMutablePointer<CChar>? = buffer.baseAddress.map { $0 + pre }
                var size = Int32(capacity)
                return lws_http_client_read(wsi, &pointer, &size) < 0 ? -1 : 0
            }
        case LWS_CALLBACK_RECEIVE_CLIENT_HTTP_READ:
            let limit = request.maxBodySize
            return state.withLock { state in
                guard let input, length > 0 else { return 0 }
                if state.body.count + length > limit {
                    state.failure = .bodyTooLarge(limit: limit)
                    return -1
                }
                state.body.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
                return 0
            }
        case LWS_CALLBACK_COMPLETED_CLIENT_HTTP:
            state.withLock { state in
                state.completed = true
                state.done = true
            }
            lws_cancel_service(lws_get_context(wsi))
            return 0
        case LWS_CALLBACK_CLOSED_CLIENT_HTTP:
            state.withLock { $0.done = true }
            return 0
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            let message = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
            let status = Int(lws_http_client_http_response(wsi))
            state.withLock { state in
                state.done = true
                guard state.failure == nil else { return }
                if status > 0 {
                    // lws 4.1 reports some statuses (401 among them) as a connection error; still an answer.
                    state.status = status
                    state.body = []
                    state.completed = true
                } else {
                    state.failure = Self.classify(message, secure: secure,
                                                  certificateRejected: state.certificateRejected,
                                                  host: host)
                }
            }
            return 0
        default:
            return 0
        }
    }

    /// The deadline's timer fired: stop servicing; destroying the context closes the connection.
    fileprivate func deadlineReached() {
        state.withLock { state in
            guard !state.done else { return }
            if state.failure == nil { state.failure = .timedOut(request.timeout) }
            state.done = true
        }
    }

    private func appendHeaders(wsi: OpaquePointer, input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        guard let input else { return 0 }
        let position = input.assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
        guard let start = position.pointee else { return 0 }
        let end = start + length
        let headers = [HTTPFetchRequest.Header(name: "accept", value: "application/json")] + request.headers
        for header in headers {
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

    private static let protocolName = "bc-http"

    private static func microseconds(_ duration: Duration) -> lws_usec_t {
        let (seconds, attoseconds) = duration.components
        return lws_usec_t(clamping: max(1, seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
    }
}

/// The protocol callback of every fetch's context; finds the exchange through the context's user pointer (the
/// exchange outlives its context: `run()` destroys the context before it returns).
private func bcHTTPFetchCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let raw = lws_context_user(context) else { return 0 }
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(raw).takeUnretainedValue()
    return exchange.handle(wsi: wsi, reason: reason, input: input, length: length)
}

/// The deadline timer's callback: the sul is the first member of `bc_lws_timer_t`.
private func bcHTTPFetchTimer(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let timer = bc_lws_timer_from_sul(sul), let owner = timer.pointee.owner else { return }
    Unmanaged<HTTPExchange>.fromOpaque(owner).takeUnretainedValue().deadlineReached()
}
