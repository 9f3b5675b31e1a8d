/// Why a connection could not be made or was lost, in terms that do not depend on the WebSocket library. The
/// transport reports one with `connectFailed` or `connectionClosed`; the session decides from it whether to
/// retry (`isRetryable`).
public enum BCTransportFailure: Hashable, Sendable, CustomStringConvertible {
    /// The host name did not resolve.
    case dnsFailed
    /// The server refused the TCP connection.
    case refused
    /// The connection attempt did not complete in time.
    case timedOut(after: Duration)
    /// Connected, but the server's answer to the upgrade request did not come, whole and valid, in time.
    case handshakeTimedOut(after: Duration)
    /// The TLS handshake failed (certificate, protocol version…), with the library's words.
    case tls(String)
    /// The server answered the WebSocket upgrade with this HTTP status instead of 101.
    case httpStatus(Int)
    /// The connection was closed, with the WebSocket close code and reason (1006 when it simply dropped).
    case closed(code: UInt16, reason: String)
    /// The server did not answer the bcsvr `PING` with `ACK` before the next was due: the link is dead.
    case pingTimeout
    /// Anything else, in the transport's words.
    case other(String)

    /// Whether trying again may help: network errors, timeouts, closes and HTTP 5xx may pass; a request the
    /// server rejects as such (HTTP 4xx: bad request, no such endpoint, not allowed) will be rejected again.
    /// 408 (request timeout) and 429 (too many requests) are the 4xx that ask to come back later. A TLS
    /// failure is final too: a certificate this client does not trust stays untrusted until the user passes
    /// its CA (`--ca-file`), and retrying forever would hide that.
    public var isRetryable: Bool {
        switch self {
        case .httpStatus(let status): !(400..<500).contains(status) || status == 408 || status == 429
        case .tls: false
        default: true
        }
    }

    public var description: String {
        switch self {
        case .dnsFailed:
            "the host name does not resolve"
        case .refused:
            "connection refused"
        case .timedOut(let after):
            "connection timed out after \(after.spoken)"
        case .handshakeTimedOut(let after):
            "WebSocket handshake timed out after \(after.spoken): connected, but no valid answer came (nothing, or not HTTP)"
        case .tls(let detail):
            detail.isEmpty ? "TLS handshake failed" : "TLS handshake failed: \(detail.excerpt)"
        case .httpStatus(let status):
            if let phrase = Self.httpPhrases[status] {
                "HTTP \(status) \(phrase) instead of a WebSocket"
            } else {
                "HTTP \(status) instead of a WebSocket"
            }
        case .closed(let code, let reason):
            "closed with code \(code)"
                + (Self.closeCodeNames[code].map { " (\($0))" } ?? "")
                + (reason.isEmpty ? "" : ": \(reason.excerpt)")
        case .pingTimeout:
            "no ACK to PING: the link is dead"
        case .other(let detail):
            detail.excerpt
        }
    }

    private static let httpPhrases: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 408: "Request Timeout",
        410: "Gone", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    private static let closeCodeNames: [UInt16: String] = [
        1000: "normal closure", 1001: "going away", 1002: "protocol error", 1003: "unsupported data",
        1005: "no status", 1006: "connection lost", 1007: "invalid data", 1008: "policy violation",
        1009: "message too big", 1011: "server error", 1012: "service restart", 1013: "try again later",
    ]
}
