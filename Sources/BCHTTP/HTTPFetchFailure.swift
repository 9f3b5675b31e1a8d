import BCWebSocket

/// Why an `HTTPFetcher` fetch got no answer. An HTTP status, whatever it is, is an answer
/// (`HTTPFetchResponse.status`), not one of these.
public enum HTTPFetchFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not an `http`/`https` URL with a host.
    case invalidURL(String)
    /// No complete answer within the request's timeout.
    case timedOut(Duration)
    /// The TLS handshake failed: certificate not trusted, wrong host name, no common protocol; or the trust could
    /// not be set up (a CA file that does not load).
    case tls(TLSFailure)
    /// Nothing listens there, or the host cannot be reached or resolved.
    case unreachable(String)
    /// The body grew past the request's `maxBodySize`; reading stopped there.
    case bodyTooLarge(limit: Int)
    /// The connection closed before the answer was complete.
    case truncated
    /// The task was cancelled.
    case cancelled
    /// Any other failure (no socket, a read that failed…), described for a person.
    case other(String)

    public var description: String {
        switch self {
        case .invalidURL(let url): "\(url) is not an http:// or https:// URL with a host"
        case .timedOut(let limit): "no complete answer within \(limit.components.seconds) s"
        case .tls(let detail): "TLS handshake failed: \(detail)"
        case .unreachable(let detail): "could not connect: \(detail)"
        case .bodyTooLarge(let limit): "the answer is larger than \(limit) bytes; reading stopped there"
        case .truncated: "the connection closed before the answer was complete"
        case .cancelled: "cancelled"
        case .other(let detail): detail
        }
    }
}
