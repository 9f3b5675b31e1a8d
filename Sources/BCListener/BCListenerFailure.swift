/// Why a listener stopped for good, short of the live ending: the server rejected the connection in a way
/// that retrying cannot fix, or `maxAttempts` attempts in a row failed.
public enum BCListenerFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server rejected the connection as such (HTTP 401, 403, 404 and the other 4xx that are not 408 or
    /// 429): the same request would be rejected again.
    case rejected(BCTransportFailure)
    /// `attempts` connection attempts in a row failed, the last for `lastFailure`.
    case retriesExhausted(attempts: Int, lastFailure: BCTransportFailure)

    /// The failure for a person, naming the server: "online.mirrativ.com rejected the connection: …".
    public func description(host: String) -> String {
        switch self {
        case .rejected(let failure):
            "\(host) rejected the connection: \(failure); not retrying, as it would be rejected again"
                + (Self.hints(for: failure).map { " (\($0))" } ?? "")
        case .retriesExhausted(let attempts, let lastFailure):
            "cannot reach \(host): \(lastFailure); giving up after \(attempts) attempt\(attempts == 1 ? "" : "s")"
        }
    }

    public var description: String { description(host: "the server") }

    private static func hints(for failure: BCTransportFailure) -> String? {
        switch failure {
        case .httpStatus(401), .httpStatus(403): "the server does not let this client in"
        case .httpStatus(404): "check the URL: bcsvr listens on wss://<broadcast_host>/"
        default: nil
        }
    }
}
