import BCMessages

/// The comments API's answer (`GET /api/live/live_comments`, `{"status":…,"comments":[…]}`, one answer a line as
/// the API sends it) audited against `BacklogComment`: its comments are not bcsvr messages and have no `t`, so
/// they are tallied apart, and a key of a comment that `BacklogComment.knownKeys` lacks is a new key like any
/// other (`AuditReport.backlog`, counted in the findings). Bounded as the rest: at most `Limits.maxPaths` keys,
/// each cut at `Limits.maxKeyBytes`.
struct BacklogTally: Sendable {
    var answers = 0
    var comments = 0
    var reencoded = 0
    var newKeys: [String: Audit.PathTally] = [:]
    var untrackedKeys = 0
}

extension Audit {
    /// Audits one answer of the comments API (its JSON text as received).
    mutating func add(backlogAnswer json: String, at location: AuditLocation) {
        let bytes = Array(json.utf8)
        guard let root = try? AuditJSON.parse(bytes), case .array(let members, _)? = root["comments"] else {
            return addBadLine(reason: "a comments answer without a comments array", at: location)
        }
        backlog.answers += 1
        for member in members {
            guard case .object(let keys, _) = member else {
                addBadLine(reason: "a member of comments that is not an object", at: location)
                continue
            }
            backlog.comments += 1
            for (key, value) in keys where !BacklogComment.knownKeys.contains(key) {
                let path = Self.clipped(key, maxBytes: limits.maxKeyBytes)
                if backlog.newKeys[path] == nil, backlog.newKeys.count >= limits.maxPaths {
                    backlog.untrackedKeys += 1
                    continue
                }
                var entry = backlog.newKeys[path] ?? Audit.PathTally(known: false, field: nil, firstSeen: location)
                entry.count(value.type)
                if entry.sample == nil { entry.sample = Self.sample(bytes, value.range, scalars: limits.sampleScalars) }
                backlog.newKeys[path] = entry
            }
        }
    }

    /// The backlog part of the report, nil when no backlog was seen.
    func backlogReport() -> AuditReport.Backlog? {
        guard backlog.answers + backlog.reencoded > 0 else { return nil }
        let newKeys = backlog.newKeys.sorted { $0.key < $1.key }.map { path, entry in
            AuditReport.NewKey(path: path, count: entry.seen.values.reduce(0, +),
                               types: Dictionary(uniqueKeysWithValues: entry.seen.map { ($0.key.rawValue, $0.value) }),
                               sample: entry.sample ?? "", firstSeen: entry.firstSeen)
        }
        return AuditReport.Backlog(answers: backlog.answers, comments: backlog.comments, reencoded: backlog.reencoded,
                                   newKeys: newKeys, untrackedKeys: backlog.untrackedKeys)
    }
}

extension AuditReport {
    /// Backlog comments (the comments API's answers) seen, and their keys `BacklogComment` does not know.
    public struct Backlog: Hashable, Sendable, Codable {
        /// Answers of the comments API audited (each with a `comments` array).
        public var answers: Int
        /// Members of those answers' `comments` arrays that are objects, each audited for new keys.
        public var comments: Int
        /// Backlog comments of a log of `listen --format ndjson`: the model's re-encoding, counted, keys not compared.
        public var reencoded: Int
        /// The keys of comments that `BacklogComment.knownKeys` lacks, sorted, each with its count, types and first
        /// sample.
        public var newKeys: [NewKey]
        /// Occurrences of keys not tracked past `maxPaths` distinct ones.
        public var untrackedKeys: Int
    }
}
