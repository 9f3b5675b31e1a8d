import BCHTTP
import BCWebSocket

/// Why the live directory (the REST API that turns a live or user page into a bcsvr endpoint and key) gave no
/// usable answer. Each says what went wrong and what to do; the texts quote the server, so a caller that prints
/// them escapes them first (`TerminalText`).
public enum LiveDirectoryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The live is over (`is_live` 0 or `ended_at` set).
    case liveEnded(liveID: String)
    /// The live is private and the answer carries no channel to follow.
    case livePrivate(liveID: String)
    /// The streamer is not live now (`onlive` null).
    case userOffline(userID: String)
    /// The API answered with this HTTP status.
    case httpStatus(Int, endpoint: String)
    /// The API's own error (`status.ok` 0), with its message.
    case refused(endpoint: String, message: String)
    /// The body is not JSON; `excerpt` is its start.
    case notJSON(endpoint: String, excerpt: String)
    /// The body is JSON but not an object.
    case notAnObject(endpoint: String)
    /// The answer lacks keys the listener needs.
    case missingKeys(endpoint: String, keys: [String])
    /// A key holds a value that cannot be used (a host with a path in it, say).
    case unusableValue(endpoint: String, key: String, value: String)
    /// The answer's channel key (`bcsvr_key` or `broadcast_key`) is not a channel key.
    case unusableKey(InvalidChannelKey)
    /// No answer: timeout, TLS, connection refused, body too large.
    case transport(endpoint: String, HTTPFetchFailure)

    public var description: String {
        switch self {
        case .liveEnded(let id):
            "live \(id) has ended; nothing to follow (for a streamer's next live, give their user page with --wait)"
        case .livePrivate(let id):
            "live \(id) is private: the API gives no channel for it"
        case .userOffline(let id):
            "user \(id) is not live now; add --wait to wait until they go live"
        case .httpStatus(let status, let endpoint):
            "the \(endpoint) API answered HTTP \(status): " + Self.advice(forStatus: status)
        case .refused(let endpoint, let message):
            "the \(endpoint) API refused: \(message.isEmpty ? "(no message)" : message)"
        case .notJSON(let endpoint, let excerpt):
            "the \(endpoint) API answered something that is not JSON (starts with \(excerpt)); is --api-base right?"
        case .notAnObject(let endpoint):
            "the \(endpoint) API answered JSON that is not an object; is --api-base right?"
        case .missingKeys(let endpoint, let keys):
            "the \(endpoint) answer lacks \(keys.joined(separator: ", ")); the API may have changed (run with the "
                + "live's wss:// URL and --key instead)"
        case .unusableValue(let endpoint, let key, let value):
            "the \(endpoint) answer's \(key) is unusable: \(value)"
        case .unusableKey(let invalid):
            "\(invalid); is --api-base the service's API?"
        case .transport(let endpoint, .bodyTooLarge(let limit)):
            "the \(endpoint) API's answer is larger than \(limit) bytes; reading stopped there (is --api-base right?)"
        case .transport(let endpoint, let failure):
            "the \(endpoint) API could not be reached: \(failure)" + Self.advice(for: failure)
        }
    }

    private static func advice(forStatus status: Int) -> String {
        switch status {
        case 401, 403:
            "the API wants a logged-in browser's cookie: pass --cookie mr_id=VALUE (or set BCSTREAM_COOKIE)"
        case 404: "no such live or user; check the URL"
        case 429: "too many requests; wait a few minutes before trying again"
        case 500...599: "the service has a problem; try again later"
        default: "unexpected; check --api-base"
        }
    }

    private static func advice(for failure: HTTPFetchFailure) -> String {
        switch failure {
        case .tls(let failure) where failure.caFileMayHelp: " (for a private CA, pass --ca-file)"
        case .timedOut: " (raise --api-timeout, or check the network)"
        default: ""
        }
    }

    /// Worth another try later (`--wait` polls on): the network or the service, not the request.
    public var isTransient: Bool {
        switch self {
        case .transport(_, let failure):
            switch failure {
            case .timedOut, .unreachable, .truncated, .other: true
            default: false
            }
        case .httpStatus(let status, _): status == 429 || status >= 500
        default: false
        }
    }
}
