import BCMessages

extension MessageFormatter {
    /// The kind shown for a backlog comment: it comes from the comments API, not bcsvr, so it has no `t`.
    public static let backlogKind = "backlogComment"

    /// One line for a recent comment fetched from the API (`listen --backlog`): in text, `api` where a message has
    /// its `t`, the kind, `[backlog]` and `name: text`, escaped; in NDJSON
    /// `{"kind":"backlogComment","key":…,"backlog":true,"message":{id, userID, userName, text, createdAt, …}}`.
    public func line(for comment: BacklogComment, key: String? = nil) -> String {
        switch format {
        case .text:
            return TerminalText.escaped(
                "\(Self.padded("api", 6)) \(Self.padded(Self.backlogKind, Self.kindWidth)) \(Self.backlogMark) "
                    + comment.summary)
        case .ndjson:
            var fields = ["\"kind\":\(Self.quoted(Self.backlogKind))"]
            if let key { fields.append("\"key\":\(Self.quoted(key))") }
            fields.append("\"backlog\":true")
            fields.append("\"message\":\(Self.json(comment))")
            return "{" + fields.joined(separator: ",") + "}"
        }
    }
}
