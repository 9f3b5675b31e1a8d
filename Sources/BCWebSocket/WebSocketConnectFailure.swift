/// Why a connection attempt failed before it opened, typed so the layer above can decide whether to
/// retry (`isRetryable`) and tell a person what went wrong (`description`).
public enum WebSocketConnectFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The host name did not resolve.
    case dnsFailed(host: String, reason: String)
    /// Nothing accepted the TCP connection (every resolved address refused or was unreachable).
    case refused
    /// DNS + TCP + TLS + upgrade did not finish within the configured `connectTimeout`.
    case timedOut(after: Duration)
    /// TCP (and TLS) connected and the upgrade request went out, but no valid answer to it came within the
    /// `connectTimeout`: the server sent nothing, too little, or something that is not an HTTP answer.
    case handshakeTimedOut(after: Duration)
    /// The TLS handshake failed (certificate not trusted, wrong host name, protocol mismatch...).
    case tls(String)
    /// The server answered the upgrade with this HTTP status instead of 101.
    case httpStatus(Int)
    /// `close` was called, or the consumer went away, before the connection opened.
    case cancelled
    /// Anything else, with libwebsockets' own words.
    case other(String)

    /// Whether trying again later can help: network trouble, timeouts and 5xx can pass; 401, 403
    /// and 404 will not, nor will a certificate that is not trusted.
    public var isRetryable: Bool {
        switch self {
        case .dnsFailed, .refused, .timedOut, .handshakeTimedOut, .other: true
        case .tls, .cancelled: false
        case .httpStatus(let status): !(400..<500).contains(status) || status == 408 || status == 429
        }
    }

    public var description: String {
        switch self {
        case .dnsFailed(let host, let reason): "could not resolve \(host): \(reason)"
        case .refused: "connection refused: nothing is listening there"
        case .timedOut(let after): "no WebSocket connection within \(after)"
        case .handshakeTimedOut(let after):
            "connected, but no valid WebSocket handshake answer within \(after) (nothing, or not HTTP)"
        case .tls(let detail): "TLS handshake failed: \(detail)"
        case .httpStatus(let status): "server refused the upgrade with HTTP \(status)\(Self.statusHint(status))"
        case .cancelled: "cancelled before the connection opened"
        case .other(let detail): "connection failed: \(detail)"
        }
    }

    private static func statusHint(_ status: Int) -> String {
        switch status {
        case 401: " (authentication required)"
        case 403: " (forbidden)"
        case 404: " (no WebSocket endpoint at that path)"
        case 429: " (rate limited)"
        case 500..<600: " (server error, may pass)"
        default: ""
        }
    }
}
