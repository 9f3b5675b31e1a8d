import Foundation

/// A live for the fleet to follow, as queued on `bcstream.follow`: `{"url":"ws(s)://…","key":"…"}`.
struct FollowRequest: Codable, Sendable, Hashable {
    var url: String
    var key: String

    /// At most this many bytes are read from a queued request (they come from anyone who can publish).
    static let maxBytes = 16 << 10
    static let maxKeyLength = 256

    /// The request in `data`, or why it cannot be followed (it is then terminated, never retried).
    static func parse(_ data: [UInt8]) -> Result<FollowRequest, FollowRequestProblem> {
        guard data.count <= maxBytes else { return .failure(.init("a request of \(data.count) bytes (at most \(maxBytes))")) }
        guard let request = try? JSONDecoder().decode(FollowRequest.self, from: Data(data)) else {
            return .failure(.init("not {\"url\":\"ws(s)://…\",\"key\":\"…\"}: \(String(decoding: data.prefix(200), as: UTF8.self))"))
        }
        if let problem = request.problem { return .failure(.init(problem)) }
        return .success(request)
    }

    /// What makes the request unusable, if anything.
    var problem: String? {
        if key.isEmpty || key.count > Self.maxKeyLength { return "the key must have 1 to \(Self.maxKeyLength) characters" }
        guard let parsed = URL(string: url), ["ws", "wss"].contains(parsed.scheme ?? ""), parsed.host != nil else {
            return "\(url) is not a ws:// or wss:// URL"
        }
        return nil
    }

    var json: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data())
    }
}

struct FollowRequestProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What the fleet says about a live on `bcstream.status.<channel>` when its worker lets it go.
struct FollowStatus: Codable, Sendable {
    /// `ended` (t=8 or t=123 came) or `failed` (the listener gave up; `reason` says why).
    var status: String
    var key: String
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
