import BCListener
import BCMessages
import Foundation

/// A live for the fleet to follow, as queued on `bcstream.follow`: `{"url":"ws(s)://…","key":"…","live"?:"…"}`.
public struct FollowRequest: Codable, Sendable, Hashable {
    /// The bcsvr endpoint, ws:// or wss://.
    public var url: String
    /// Checked when the request is read (`ChannelKey`): a key from the queue never reaches a `SUB` line unchecked.
    public var key: ChannelKey
    /// The live's id on the API, if known: a worker that takes the live over fetches its recent comments with it
    /// and stores those it missed. At most 64 of `A-Z a-z 0-9 _ -` (it goes into a URL).
    public var live: String?

    /// A request to follow channel `key` on `url`, live `live` on the API (check ``problem`` before queueing it).
    public init(url: String, key: ChannelKey, live: String? = nil) {
        self.url = url
        self.key = key
        self.live = live
    }

    /// At most this many bytes are read from a queued request (they come from anyone who can publish).
    static let maxBytes = 16 << 10

    /// The request in `data`, received on `subject`, or why it cannot be followed (it is then terminated, never
    /// retried). The problem's text is safe for a terminal.
    static func parse(_ data: [UInt8], subject: String) -> Result<FollowRequest, FollowRequestProblem> {
        struct Wire: Decodable { var url: String; var key: String; var live: String? }
        guard data.count <= maxBytes else { return .failure(.init("a request of \(data.count) bytes (at most \(maxBytes))")) }
        guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(data)) else {
            return .failure(.init(TerminalText.escaped(
                "not {\"url\":\"ws(s)://…\",\"key\":\"…\"}: \(TerminalText.excerpt(String(decoding: data.prefix(200), as: UTF8.self)))")))
        }
        let key: ChannelKey
        do {
            key = try ChannelKey(wire.key, from: "follow request on \(subject)")
        } catch {
            return .failure(.init(error.description, badKey: true))
        }
        let request = FollowRequest(url: wire.url, key: key, live: wire.live)
        if let problem = request.problem { return .failure(.init(TerminalText.escaped(problem))) }
        return .success(request)
    }

    /// What makes the request's URL unusable, if anything (the key was checked when it was made).
    public var problem: String? {
        guard let parsed = URL(string: url), ["ws", "wss"].contains(parsed.scheme ?? ""), parsed.host != nil else {
            return "\(TerminalText.excerpt(url)) is not a ws:// or wss:// URL"
        }
        if let live, !Self.isPlainID(live) {
            return "\(TerminalText.excerpt(live)) is not a live id (at most 64 of A-Z a-z 0-9 _ -)"
        }
        return nil
    }

    /// An id as the API shows them (a live's, a comment's): nothing that could change the URL or header it goes into.
    static func isPlainID(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count) && text.utf8.allSatisfy {
            switch $0 {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"): true
            default: false
            }
        }
    }

    /// The request as queued: sorted keys, slashes unescaped.
    public var json: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data())
    }
}

struct FollowRequestProblem: Error, CustomStringConvertible {
    let description: String
    /// The request's key is not a channel key.
    let badKey: Bool
    init(_ description: String, badKey: Bool = false) {
        self.description = description
        self.badKey = badKey
    }
}

/// What the fleet says about a live on `bcstream.status.<channel>` when its worker lets it go.
struct FollowStatus: Codable, Sendable {
    /// `ended` (t=8 or t=123 came) or `failed` (the listener gave up; `reason` says why).
    var status: String
    var key: ChannelKey
    var url: String
    var reason: String?
    /// `host:pid` of the worker.
    var worker: String
    var at: String

    var json: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data())
    }
}
