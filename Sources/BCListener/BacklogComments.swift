import BCMessages
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The recent comments of a live (`GET /api/live/live_comments?live_id=<id>`), as messages a listener emits
/// before the live ones. No answer was captured: the shape assumed (docs/DESIGN.md, "Following the real
/// service") is `{"comments":[{…}, …]}`, newest first, each comment an object like a t=1 message's payload
/// (`lci`, `cm`, `u`, `ac`, …). A comment without `t` is given `"t":1`; one that is not an object is skipped.
public enum BacklogComments {
    /// The comments' JSON texts, oldest first, at most `limit` of them (the newest).
    public static func messages(answer: JSONValue, limit: Int = 1_000) throws(LiveDirectoryError) -> [String] {
        let endpoint = "live comments"
        guard case .object = answer else { throw .notAnObject(endpoint: endpoint) }
        guard case .array(let comments)? = answer["comments"] else {
            throw .missingKeys(endpoint: endpoint, keys: ["comments (an array)"])
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        var texts: [String] = []
        for comment in comments.prefix(max(0, limit)).reversed() {
            guard case .object(var members) = comment else { continue }
            if members["t"] == nil { members["t"] = .number("1") }
            guard let data = try? encoder.encode(JSONValue.object(members)) else { continue }
            texts.append(String(decoding: data, as: UTF8.self))
        }
        return texts
    }
}
