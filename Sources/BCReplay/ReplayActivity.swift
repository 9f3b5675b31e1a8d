import BCListener
import BCMessages
import BCWebSocket

/// What the replay server did, for the person running it: who subscribed, what was sent, which fault fired.
///
/// The associated values keep what clients sent exactly; `description` quotes it as a bounded excerpt
/// (`TerminalText.excerpt`: a key or a command can be a megabyte), not escaped: print it through
/// `TerminalText.escaped(_:)`.
public enum ReplayActivity: Hashable, Sendable, CustomStringConvertible {
    /// A client subscribed to a channel.
    case subscribed(ClientID, key: String)
    /// A client's connection ended.
    case left(ClientID, key: String?)
    /// An item went to the channel's subscribers.
    case sent(ReplayItem, key: String, subscribers: Int)
    /// A run of items due at the same moment (a recording at `--speed max`, frames recorded together) went to the
    /// channel's subscribers in one write: how many, the first and the last.
    case sentRun(first: ReplayItem, last: ReplayItem, count: Int, key: String, subscribers: Int)
    /// A fault was injected.
    case fault(ClientID, String)
    /// A client sent something that is not bcsvr.
    case unknownCommand(ClientID, String)
    /// A client's `SUB` named something that is not a channel key: it was answered `ERR`, not subscribed.
    case badKey(ClientID, String, ChannelKey.Problem)
    /// A channel's playback reached its end.
    case finished(key: String)
    /// A client broke a limit and was closed: what it did, and what the server did about it.
    case refused(ClientID, String)
    /// A channel had no subscriber for the whole grace period and was forgotten.
    case released(key: String)
    /// This many entries were left out of the log because its reader was behind (`maxPendingActivity`).
    case skipped(count: Int)
    /// A connection ended before completing its WebSocket upgrade (hung up, not HTTP, or too slow).
    case abandoned(peer: String, after: Duration)

    public var description: String {
        switch self {
        case .subscribed(let client, let key): "\(client) subscribed to \(TerminalText.excerpt(key))"
        case .left(let client, let key?): "\(client) left \(TerminalText.excerpt(key))"
        case .left(let client, nil): "\(client) disconnected"
        case .sent(let item, let key, let subscribers):
            "sent \(item.fixtureName ?? item.location.description) on \(TerminalText.excerpt(key)) to \(subscribers) subscriber\(subscribers == 1 ? "" : "s")"
        case .sentRun(let first, let last, let count, let key, let subscribers):
            "sent \(count) frames, \(Self.span(first, last)), on \(TerminalText.excerpt(key)) to \(subscribers) subscriber\(subscribers == 1 ? "" : "s")"
        case .fault(let client, let what): "fault on \(client): \(what)"
        case .unknownCommand(let client, let text):
            "\(client) sent something that is not bcsvr: \(TerminalText.excerpt(text))"
        case .badKey(let client, let text, let problem):
            "\(client) sent SUB with \(problem): \(TerminalText.excerpt(text).replacing("\t", with: "\\t")); answered ERR"
        case .finished(let key): "played everything on \(TerminalText.excerpt(key))"
        case .refused(let client, let what): "closed \(client): \(what)"
        case .released(let key): "forgot \(TerminalText.excerpt(key)): no subscriber came back"
        case .skipped(let count):
            "\(count) log entr\(count == 1 ? "y" : "ies") left out: the log's reader fell behind"
        case .abandoned(let peer, let after):
            "a connection from \(peer) ended after \(after.spoken) without completing its WebSocket handshake (hung up, not HTTP, or timed out)"
        }
    }

    /// Where a run came from: `session.ndjson:12–40` within one recording, else its first and last item.
    private static func span(_ first: ReplayItem, _ last: ReplayItem) -> String {
        if first.fixtureName == nil, last.fixtureName == nil, first.location.file == last.location.file {
            return "\(first.location)–\(last.location.line)"
        }
        return "\(first.fixtureName ?? first.location.description) to \(last.fixtureName ?? last.location.description)"
    }
}
