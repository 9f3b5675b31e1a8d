#if canImport(Glibc)
import Glibc
#endif
import BCWebSocket
import Foundation
import Synchronization

/// HTTP(S) GET over a plain socket and the `wss://` client's own TLS (`ClientTLS`): the same OpenSSL trust
/// (`WebSocketClientConfiguration.TLS`: system store, a `caFile`, or insecure), the same certificate checks (the
/// URL's host name, or its IP address with no SNI, RFC 6066 §3) and the same words for a failure (`TLSFailure`).
/// Meant for a few small REST answers (a live's info, a profile), not for bulk transfer.
///
/// Redirects are not followed (an answer in 3xx is returned as it is), HTTP/1.1 only, and the body is capped
/// (`HTTPFetchRequest.maxBodySize`): the server is not trusted. A timeout or a cancellation answers at once;
/// the connection is closed behind it. Each fetch runs on a thread of its own (DNS and the socket block there).
public enum HTTPFetcher {
    /// Performs one GET. Any HTTP status is an answer; only the lack of one throws.
    public static func fetch(_ request: HTTPFetchRequest) async throws(HTTPFetchFailure) -> HTTPFetchResponse {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = request.url.host(percentEncoded: false), !host.isEmpty else {
            throw .invalidURL(request.url.absoluteString)
        }
        let call = HTTPFetchCall(request: request, host: host, secure: scheme == "https")
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPFetchResponse, HTTPFetchFailure>, Never>) in
                call.start(continuation)
            }
        } onCancel: {
            call.finish(.failure(.cancelled))
        }
        return try result.get()
    }

    /// One `ClientTLSContext` per trust, made at its first fetch and kept (loading the system store costs some
    /// 50 ms of CPU).
    private static let contexts = Mutex<[WebSocketClientConfiguration.TLS: ClientTLSContext]>([:])

    static func context(for tls: WebSocketClientConfiguration.TLS) -> Result<ClientTLSContext, HTTPFetchFailure> {
        contexts.withLock { cache in
            if let context = cache[tls] { return .success(context) }
            switch ClientTLSContext.make(tls) {
            case .success(let context):
                cache[tls] = context
                return .success(context)
            case .failure(.tls(let detail)):
                return .failure(.tls(TLSFailure(kind: .trustSetup, description: detail)))
            case .failure(let other):
                return .failure(.tls(TLSFailure(kind: .trustSetup, description: other.description)))
            }
        }
    }
}

/// One fetch: the caller's continuation, answered once (by the fetch's thread, its deadline or a cancellation),
/// and a pipe that wakes the thread's waits when the answer was given elsewhere.
final class HTTPFetchCall: Sendable {
    typealias Answer = Result<HTTPFetchResponse, HTTPFetchFailure>

    private struct State {
        var continuation: CheckedContinuation<Answer, Never>?
        var answer: Answer?
        /// The thread is done and has closed the pipe.
        var closed = false
    }

    let request: HTTPFetchRequest
    let host: String
    let secure: Bool
    /// The pipe's read end, readable once the call is answered (-1 if no pipe could be made: waits then end only
    /// at the deadline, a little later than the answer).
    let wake: Int32
    private let wakeWriter: Int32
    private let state = Mutex(State())

    init(request: HTTPFetchRequest, host: String, secure: Bool) {
        self.request = request
        self.host = host
        self.secure = secure
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC); _ = fcntl(end, F_SETFL, O_NONBLOCK) }
        } else {
            ends = [-1, -1]
        }
        wake = ends[0]
        wakeWriter = ends[1]
    }

    func start(_ continuation: CheckedContinuation<Answer, Never>) {
        let early = state.withLock { state -> Answer? in
            if let answer = state.answer { return answer }
            state.continuation = continuation
            return nil
        }
        if let early {
            continuation.resume(returning: early)
            closeWake()
            return
        }
        let timeout = request.timeout
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: timeout.nanoseconds))) {
            [self] in finish(.failure(.timedOut(timeout)))
        }
        let thread = Thread { [self] in
            var exchange = HTTPExchange(call: self)
            let answer = exchange.run()
            exchange.close()
            finish(answer)
            closeWake()
        }
        thread.name = "BCHTTP.fetch"
        thread.start()
    }

    /// Answers the caller, once; later answers are dropped.
    func finish(_ answer: Answer) {
        let continuation = state.withLock { state -> CheckedContinuation<Answer, Never>? in
            guard state.answer == nil else { return nil }
            state.answer = answer
            if !state.closed, wakeWriter >= 0 {
                var one: UInt8 = 1
                _ = write(wakeWriter, &one, 1)
            }
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: answer)
    }

    var isAnswered: Bool { state.withLock { $0.answer != nil } }

    private func closeWake() {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            if wake >= 0 { Glibc.close(wake) }
            if wakeWriter >= 0 { Glibc.close(wakeWriter) }
        }
    }
}

private extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).overflow
            ? .max : seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
