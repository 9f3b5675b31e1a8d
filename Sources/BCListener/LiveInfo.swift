import BCMessages
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a listener needs from the live-info answer (`GET /api/live/live?live_id=<id>`): where its bcsvr is,
/// the channel key, and whether it is on. The answer is hostile input: ids and flags come as strings or
/// numbers (read either way, as `Forcible` does), and any other key is ignored.
public struct LiveInfo: Hashable, Sendable {
    /// `live_id`: the live's id, or the id that was asked for when the answer names none.
    public var liveID: String
    /// `broadcast_host`, possibly with `:port`; the endpoint is `wss://<broadcastHost>/`.
    public var broadcastHost: String
    /// `bcsvr_key`, or `broadcast_key` when that is absent; checked (`ChannelKey`).
    public var key: ChannelKey
    /// `is_live`: always true in info read from an answer, since an ended live is thrown as `.liveEnded`.
    public var isLive: Bool
    /// `is_private`: the live is private (a private live's answer without its bcsvr fields is `.livePrivate`).
    public var isPrivate: Bool
    /// `ended_at` (Unix seconds), 0 while live.
    public var endedAt: Int
    /// `title`: the live's title as the streamer wrote it (untrusted text), if the answer has one.
    public var title: String?
    /// `owner.name`: the streamer's display name (untrusted text), if the answer has one.
    public var ownerName: String?

    /// The info of live `liveID`, on by default, whose bcsvr is at `broadcastHost` under channel `key`.
    public init(liveID: String, broadcastHost: String, key: ChannelKey, isLive: Bool = true, isPrivate: Bool = false,
                endedAt: Int = 0, title: String? = nil, ownerName: String? = nil) {
        self.liveID = liveID
        self.broadcastHost = broadcastHost
        self.key = key
        self.isLive = isLive
        self.isPrivate = isPrivate
        self.endedAt = endedAt
        self.title = title
        self.ownerName = ownerName
    }

    /// The bcsvr endpoint: `wss://<broadcast_host>/`.
    public var endpoint: URL? {
        URL(string: "wss://\(broadcastHost)/")
    }

    /// Reads the answer's JSON object. `requested` is the id asked for, used when the answer names none.
    public init(answer: JSONValue, requested: String) throws(LiveDirectoryError) {
        let endpoint = "live info"
        guard case .object = answer else { throw .notAnObject(endpoint: endpoint) }
        let isLive = answer["is_live"]?.flag ?? false
        let endedAt = answer["ended_at"]?.integer ?? 0
        let isPrivate = answer["is_private"]?.flag ?? false
        let liveID = answer["live_id"]?.text ?? requested
        // An ended live may come without its bcsvr fields: say it ended rather than that keys are missing.
        if !isLive || endedAt > 0 { throw .liveEnded(liveID: liveID) }
        let bcsvrKey = (answer["bcsvr_key"]?.text).flatMap { $0.isEmpty ? nil : $0 }
        guard let host = answer["broadcast_host"]?.text, !host.isEmpty,
              let keyText = bcsvrKey ?? (answer["broadcast_key"]?.text).flatMap({ $0.isEmpty ? nil : $0 }) else {
            if isPrivate { throw .livePrivate(liveID: liveID) }
            var missing: [String] = []
            if (answer["broadcast_host"]?.text ?? "").isEmpty { missing.append("broadcast_host") }
            if (answer["bcsvr_key"]?.text ?? answer["broadcast_key"]?.text ?? "").isEmpty {
                missing.append("bcsvr_key (or broadcast_key)")
            }
            throw .missingKeys(endpoint: endpoint, keys: missing)
        }
        // The host goes into a URL: letters, digits, dots, dashes and one optional :port only.
        guard Self.isHostAndPort(host) else { throw .unusableValue(endpoint: endpoint, key: "broadcast_host", value: host) }
        // The key goes into a `SUB` line: a key with a line break would subscribe to another channel too.
        let key: ChannelKey
        do {
            key = try ChannelKey(keyText, from: "the \(endpoint) answer's \(bcsvrKey == nil ? "broadcast_key" : "bcsvr_key")")
        } catch {
            throw .unusableKey(error)
        }
        self.init(liveID: liveID, broadcastHost: host, key: key, isLive: isLive, isPrivate: isPrivate,
                  endedAt: endedAt, title: answer["title"]?.text, ownerName: answer["owner"]?["name"]?.text)
    }

    static func isHostAndPort(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let name = parts.first, !name.isEmpty, name.utf8.count <= 253,
              name.unicodeScalars.allSatisfy({
                  ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-"
              }) else { return false }
        if parts.count == 2 {
            guard let port = Int(parts[1]), (1...65535).contains(port) else { return false }
        }
        return true
    }
}

extension JSONValue {
    /// A string, or a number's digits: ids arrive as either.
    var text: String? {
        switch self {
        case .string(let text): text
        case .number(let digits): digits
        default: nil
        }
    }

    /// An integer from a number or a string of digits.
    var integer: Int? {
        switch self {
        case .number(let digits): Int(digits) ?? Double(digits).flatMap { $0.isFinite ? Int(exactly: $0.rounded()) : nil }
        case .string(let text): Int(text)
        case .bool(let flag): flag ? 1 : 0
        default: nil
        }
    }

    /// A 0/1 flag as a number, a string or a boolean.
    var flag: Bool? {
        if case .bool(let flag) = self { return flag }
        return integer.map { $0 != 0 }
    }
}
