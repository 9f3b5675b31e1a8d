#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a person holds to name a live: a live page (`https://www.mirrativ.com/live/<live_id>`, also
/// `/broadcast/<live_id>`), a bare live id, or a streamer's page (`https://www.mirrativ.com/user/<user_id>`).
public enum LiveReference: Hashable, Sendable, CustomStringConvertible {
    /// A live, by its live id (a live page or a bare id).
    case live(id: String)
    /// A streamer, by their user id (a user page): their current live is found through the profile API.
    case user(id: String)

    /// Reads `text`; nil when it is none of the forms above. The page's host is not checked (any http or https
    /// host will do, so that a mirror or a test server works); the API asked is `LiveDirectory.apiBase`.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if Self.isIdentifier(trimmed) {
            self = .live(id: trimmed)
            return
        }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
              scheme == "https" || scheme == "http", url.host != nil else { return nil }
        let parts = url.path(percentEncoded: false).split(separator: "/").map(String.init)
        guard parts.count == 2, Self.isIdentifier(parts[1]) else { return nil }
        switch parts[0] {
        case "live", "broadcast": self = .live(id: parts[1])
        case "user": self = .user(id: parts[1])
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .live(let id): "live \(id)"
        case .user(let id): "user \(id)"
        }
    }

    /// Live ids look like `Xq3Zk-8s_Ab4Cd5Ef6Gh7J`, user ids like `9001234`: letters, digits, `-` and `_`, at
    /// most 64 of them. Anything else is not sent to the API.
    static func isIdentifier(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
        }
    }
}
