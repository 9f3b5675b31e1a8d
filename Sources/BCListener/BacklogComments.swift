import BCMessages

/// The recent comments of a live (`GET /api/live/live_comments?live_id=<id>`): `{"status":{…},"comments":[…]}`,
/// newest first, each a `BacklogComment` (a captured answer: Tests/Peers/api/api-live-comments.json). A listener
/// shows them, oldest first, before the live ones.
public struct BacklogComments: Hashable, Sendable {
    /// Oldest first, at most `limit` of them (the newest).
    public var comments: [BacklogComment]
    /// Members of `comments` that are not comments (not an object, no id), each with why; they are not shown.
    public var problems: [BacklogComment.Problem]

    /// The given comments, oldest first, and the members that were not comments.
    public init(comments: [BacklogComment], problems: [BacklogComment.Problem] = []) {
        self.comments = comments
        self.problems = problems
    }

    /// Reads the answer. Work and memory are linear in `limit`: members past it are not looked at.
    public init(answer: JSONValue, limit: Int = 1_000) throws(LiveDirectoryError) {
        let endpoint = "live comments"
        guard case .object = answer else { throw .notAnObject(endpoint: endpoint) }
        guard case .array(let members)? = answer["comments"] else {
            throw .missingKeys(endpoint: endpoint, keys: ["comments (an array)"])
        }
        var comments: [BacklogComment] = []
        var problems: [BacklogComment.Problem] = []
        for member in members.prefix(max(0, limit)).reversed() {
            do {
                comments.append(try BacklogComment(json: member))
            } catch {
                problems.append(error)
            }
        }
        self.init(comments: comments, problems: problems)
    }
}
