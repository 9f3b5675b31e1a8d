import BCMessages

/// What an `Audit` found, as values: `text(columns:)` renders it for people, `Codable` (with `.sortedKeys`) is
/// the stable `--format json` schema, documented in the README ("Audit: when the service changes").
///
/// Paths join object keys with `.` and mark array elements with `[]` (`rankings[].ei`); `types` counts the JSON
/// types seen (`null`, `boolean`, `number`, `string`, `array`, `object`); samples are the value's JSON text as
/// received, cut at 60 Unicode scalars (`… (N bytes)`), never escaped for a terminal here (`text` does that).
public struct AuditReport: Hashable, Sendable, Codable {
    /// The schema's name and version; a change that removes or renames a field changes it.
    public static let schemaVersion = "bcstream-audit/1"

    /// The schema this report follows (`schemaVersion` when it was made by this build).
    public var schema = AuditReport.schemaVersion
    /// Messages whose keys were compared with the model (wire text, and unknown kinds kept by an NDJSON log).
    public var messages: Int
    /// Messages of known kinds from a log of `listen --format ndjson`: the model's re-encoding, counted per
    /// kind but not compared (their keys are the model's own).
    public var reencoded: Int
    /// bcsvr lines that carry no message (`ACK`, `ERR`, `PING`).
    public var skippedLines: Int
    /// Lines or messages that could not be read (not JSON, no `t`, a binary frame…), all counted.
    public var badLines: Int
    /// The first bad lines, with why.
    public var badLineSamples: [BadLine]
    /// The known kinds seen, by `t`.
    public var kinds: [Kind]
    /// The kinds the model does not know, by `t`.
    public var unknownKinds: [UnknownKind]
    /// Messages of unknown kinds beyond the number of kinds tracked.
    public var untrackedUnknownKindMessages: Int
    /// Each limit of memory that was reached, in words; empty when the report is complete.
    public var limitsReached: [String]
    /// How many distinct things differ from the model, by sort.
    public var findings: Findings
    /// Backlog comments (the comments API's answers) seen; absent when none was.
    public var backlog: Backlog?
    /// The earlier report this one was compared with (`audit --baseline FILE`): then the findings are only what
    /// that one did not have.
    public var baseline: String?

    /// A report of these tallies; `findings` is counted from them.
    public init(messages: Int, reencoded: Int, skippedLines: Int, badLines: Int, badLineSamples: [BadLine],
                kinds: [Kind], unknownKinds: [UnknownKind], untrackedUnknownKindMessages: Int,
                limitsReached: [String], backlog: Backlog? = nil) {
        self.messages = messages
        self.reencoded = reencoded
        self.skippedLines = skippedLines
        self.badLines = badLines
        self.badLineSamples = badLineSamples
        self.kinds = kinds
        self.unknownKinds = unknownKinds
        self.untrackedUnknownKindMessages = untrackedUnknownKindMessages
        self.limitsReached = limitsReached
        self.backlog = backlog
        findings = Findings(newKeys: 0, newKinds: 0, drift: 0, missingKeys: 0)
        recount()
    }

    private mutating func recount() {
        findings = Findings(
            newKeys: kinds.map(\.newKeys.count).reduce(0, +) + (backlog?.newKeys.count ?? 0),
            newKinds: unknownKinds.count + (untrackedUnknownKindMessages > 0 ? 1 : 0),
            drift: kinds.map(\.drift.count).reduce(0, +),
            missingKeys: kinds.map(\.missing.count).reduce(0, +))
    }

    /// This report with only what `earlier` (named `name`) did not have: a new key, an unknown kind or a missing
    /// key it did not report, and, as drift, a key seen with a JSON type it was never seen with there (mixed or
    /// not: `coins` always a string before and now a number is drift from what was seen before). The types an
    /// earlier report knows of a key are those of its `keys` (made with `--keys`) and its `drift`; a known key it
    /// has no types for keeps this report's verdict. The counts of messages and kinds are this report's.
    public func comparing(with earlier: AuditReport, named name: String) -> AuditReport {
        struct Path: Hashable {
            let t: Int
            let path: String
        }
        var seenTypes: [Path: Set<String>] = [:]
        for kind in earlier.kinds {
            for key in kind.keys ?? [] { seenTypes[Path(t: kind.t, path: key.path), default: []].formUnion(key.types.keys) }
            for drift in kind.drift { seenTypes[Path(t: kind.t, path: drift.path), default: []].formUnion(drift.types.keys) }
        }
        let earlierNewKeys = Set(earlier.kinds.flatMap { kind in kind.newKeys.map { Path(t: kind.t, path: $0.path) } })
        let earlierMissing = Set(earlier.kinds.flatMap { kind in kind.missing.map { Path(t: kind.t, path: $0.path) } })
        let earlierKinds = Set(earlier.unknownKinds.map(\.t))

        var result = self
        result.baseline = name
        let earlierBacklogKeys = Set(earlier.backlog?.newKeys.map(\.path) ?? [])
        result.backlog?.newKeys.removeAll { earlierBacklogKeys.contains($0.path) }
        result.unknownKinds = unknownKinds.filter { !earlierKinds.contains($0.t) }
        result.kinds = kinds.map { kind in
            var kind = kind
            kind.newKeys = kind.newKeys.filter { !earlierNewKeys.contains(Path(t: kind.t, path: $0.path)) }
            kind.missing = kind.missing.filter { !earlierMissing.contains(Path(t: kind.t, path: $0.path)) }
            func isNew(_ path: String, _ types: [String: Int]) -> Bool? {
                guard let before = seenTypes[Path(t: kind.t, path: path)] else { return nil }
                return !Set(types.keys).subtracting(before).subtracting(["null"]).isEmpty
            }
            var drift = kind.drift.filter { isNew($0.path, $0.types) ?? true }
            let drifted = Set(drift.map(\.path))
            for key in kind.keys ?? [] where !drifted.contains(key.path) && isNew(key.path, key.types) == true {
                drift.append(Drift(path: key.path, declared: key.declared, optional: key.optional, count: key.count,
                                   types: key.types, unexpected: []))
            }
            kind.drift = drift.sorted { $0.path < $1.path }
            return kind
        }
        result.recount()
        return result
    }

    /// How many distinct things differ from the model.
    public struct Findings: Hashable, Sendable, Codable {
        /// Key paths the model does not know.
        public var newKeys: Int
        /// Kinds the model does not know (those past the tracking limit count as one).
        public var newKinds: Int
        /// Known keys seen with a JSON type they do not take, or with several.
        public var drift: Int
        /// Required keys absent from some messages.
        public var missingKeys: Int
        /// Every finding: zero when the captures hold nothing the model does not know.
        public var total: Int { newKeys + newKinds + drift + missingKeys }

        /// Findings of these counts.
        public init(newKeys: Int, newKinds: Int, drift: Int, missingKeys: Int) {
            self.newKeys = newKeys
            self.newKinds = newKinds
            self.drift = drift
            self.missingKeys = missingKeys
        }
    }

    /// A line that could not be read, and why.
    public struct BadLine: Hashable, Sendable, Codable {
        /// Where the line was.
        public var location: AuditLocation
        /// Why it could not be read, cut to 200 characters.
        public var reason: String
    }

    /// One known kind.
    public struct Kind: Hashable, Sendable, Codable {
        /// The kind's `t`.
        public var t: Int
        /// `BCType`'s name (`gift`).
        public var kind: String
        /// Its messages whose keys were compared.
        public var messages: Int
        /// Its messages from an NDJSON log's re-encoding, counted but not compared.
        public var reencoded: Int
        /// The key paths of this kind the model does not know.
        public var newKeys: [NewKey] = []
        /// The known keys whose JSON types drifted.
        public var drift: [Drift] = []
        /// The required keys that were absent.
        public var missing: [Missing] = []
        /// Occurrences of keys not tracked because the kind reached its limit of distinct paths.
        public var untrackedKeys = 0
        /// Every known key seen, with its JSON types: only when asked for (`audit --keys`).
        public var keys: [KnownKey]?

        /// A kind's tally with nothing found yet.
        public init(t: Int, kind: String, messages: Int, reencoded: Int) {
            self.t = t
            self.kind = kind
            self.messages = messages
            self.reencoded = reencoded
        }
    }

    /// A key path the model does not know (its keys below it are not listed: they are new too).
    public struct NewKey: Hashable, Sendable, Codable {
        /// The key path (`rankings[].glow`).
        public var path: String
        /// How many values were seen at the path.
        public var count: Int
        /// How many of them were of each JSON type (`"number": 3`).
        public var types: [String: Int]
        /// The first value seen, as JSON text, cut.
        public var sample: String
        /// Where the key was first seen.
        public var firstSeen: AuditLocation
    }

    /// A known key seen with more than one JSON type (`null` aside), or with a type its declared form does not
    /// accept (`unexpected`); against a baseline, one seen with a type the baseline never saw it with.
    public struct Drift: Hashable, Sendable, Codable {
        /// The key path.
        public var path: String
        /// The form the catalogue declares (`int`, `string`, `bool`, `double`, `openEnum`, `object`, `array`,
        /// `stringDictionary`); absent for a payload that keeps every key.
        public var declared: String?
        /// Whether the catalogue declares the key optional; absent when `declared` is.
        public var optional: Bool?
        /// How many values were seen at the path.
        public var count: Int
        /// How many of them were of each JSON type.
        public var types: [String: Int]
        /// The types seen that the declared form does not accept.
        public var unexpected: [String]
        /// The first value of an unexpected type, as JSON text, cut.
        public var unexpectedSample: String?
        /// Where that value was seen.
        public var unexpectedAt: AuditLocation?
    }

    /// A known key and the JSON types it was seen with.
    public struct KnownKey: Hashable, Sendable, Codable {
        /// The key path.
        public var path: String
        /// The form the catalogue declares (`int`, `string`…); absent for a payload that keeps every key.
        public var declared: String?
        /// Whether the catalogue declares the key optional; absent when `declared` is.
        public var optional: Bool?
        /// How many values were seen at the path.
        public var count: Int
        /// How many of them were of each JSON type.
        public var types: [String: Int]

        /// A known key's tally.
        public init(path: String, declared: String?, optional: Bool?, count: Int, types: [String: Int]) {
            self.path = path
            self.declared = declared
            self.optional = optional
            self.count = count
            self.types = types
        }
    }

    /// A required key absent from some messages (or from some objects of a nested path).
    public struct Missing: Hashable, Sendable, Codable {
        /// The key path.
        public var path: String
        /// How many messages (or nested objects) lacked it.
        public var count: Int
        /// Where it was first missed.
        public var firstSeen: AuditLocation
    }

    /// A kind the model does not know, with its first message.
    public struct UnknownKind: Hashable, Sendable, Codable {
        /// Its `t`.
        public var t: Int
        /// How many of its messages were seen.
        public var messages: Int
        /// The first message's JSON, cut; absent when only re-encoded lines were seen.
        public var sample: String?
        /// Where its first message was; absent when only re-encoded lines were seen.
        public var firstSeen: AuditLocation?
    }
}

// MARK: - Text

extension AuditReport {
    /// The report as a readable text, every line at most `columns` wide, every quoted text escaped for a terminal
    /// (`TerminalText`). Ends with a line break.
    public func text(columns: Int = 80) -> String {
        let columns = max(columns, 60)
        var lines: [String] = []
        var head = "\(messages) message\(messages == 1 ? "" : "s") audited"
        if reencoded > 0 { head += ", \(reencoded) re-encoded (NDJSON log: counted, keys not compared)" }
        if badLines > 0 { head += ", \(badLines) bad line\(badLines == 1 ? "" : "s")" }
        if skippedLines > 0 { head += ", \(skippedLines) skipped (not messages)" }
        lines += Self.wrap(head, columns: columns)
        if let baseline {
            lines += Self.wrap("Compared with \(baseline): only what it did not have is reported.", columns: columns)
        }
        lines.append("")

        // The kinds: a table.
        if !kinds.isEmpty || !unknownKinds.isEmpty {
            lines.append("     t  kind                            messages")
            for kind in kinds {
                let count = kind.messages + kind.reencoded
                lines.append(Self.padLeft(String(kind.t), 6) + "  " + Self.padRight(kind.kind, 30) + " " + Self.padLeft(String(count), 9))
            }
            for kind in unknownKinds {
                lines.append(Self.padLeft(String(kind.t), 6) + "  " + Self.padRight("(unknown kind)", 30) + " "
                    + Self.padLeft(String(kind.messages), 9))
            }
            lines.append("")
        }

        /// Rows of path, count, detail, and a line below them (or nil).
        func section(_ title: String, _ rows: (Kind) -> [(String, Int?, String, String?)]) {
            var body: [String] = []
            for kind in kinds {
                let kindRows = rows(kind)
                guard !kindRows.isEmpty else { continue }
                body.append("  t=\(kind.t) \(kind.kind)")
                for (path, count, detail, below) in kindRows {
                    body += Self.row(path, count, detail, columns: columns)
                    if let below { body += Self.fitted("      " + below, columns: columns) }
                }
            }
            guard !body.isEmpty else { return }
            lines.append(title)
            lines += body
            lines.append("")
        }
        section("New keys (the model does not know them): count, types, sample; first at") { kind in
            // Where it was first seen: the line `fixture add --line` takes.
            kind.newKeys.map { ($0.path, $0.count, Self.types($0.types) + "  " + $0.sample, "first at \($0.firstSeen)") }
        }
        section("Type drift (declared form): count, types seen") { kind in
            kind.drift.map { drift in
                var detail = Self.percentages(drift.types)
                if !drift.unexpected.isEmpty {
                    detail += "; not \(drift.declared ?? "?"): " + (drift.unexpectedSample ?? "")
                    if let at = drift.unexpectedAt { detail += " at \(at)" }
                }
                let declared = drift.declared.map { " (\($0)\(drift.optional == true ? "?" : ""))" } ?? ""
                return (drift.path + declared, drift.count, detail, nil)
            }
        }
        section("Known keys seen (declared form): count, types seen") { kind in
            (kind.keys ?? []).map { key in
                let declared = key.declared.map { " (\($0)\(key.optional == true ? "?" : ""))" } ?? ""
                return (key.path + declared, key.count, Self.percentages(key.types), nil)
            }
        }
        section("Required keys missing: messages (or objects), first at") { kind in
            kind.missing.map { ($0.path, $0.count, "first at \($0.firstSeen)", nil) }
        }
        if !unknownKinds.isEmpty {
            lines.append("Unknown kinds: messages, first at, sample")
            for kind in unknownKinds {
                let at = kind.firstSeen.map { ", first at \($0)" } ?? ""
                lines += Self.fitted("  t=\(kind.t)  \(kind.messages) message\(kind.messages == 1 ? "" : "s")\(at)",
                                     columns: columns)
                if let sample = kind.sample { lines += Self.fitted("    " + sample, columns: columns) }
            }
            if untrackedUnknownKindMessages > 0 {
                lines.append("  and \(untrackedUnknownKindMessages) messages of further unknown kinds")
            }
            lines.append("")
        }
        if let backlog {
            lines += Self.wrap("Backlog comments (the comments API): \(Self.count(backlog.comments, "comment")) in "
                + "\(Self.count(backlog.answers, "answer"))"
                + (backlog.reencoded > 0 ? ", \(backlog.reencoded) re-encoded (counted, keys not compared)" : ""),
                columns: columns)
            if !backlog.newKeys.isEmpty {
                lines.append("  New keys (BacklogComment does not know them): count, types, sample; first at")
                for key in backlog.newKeys {
                    lines += Self.row(key.path, key.count, Self.types(key.types) + "  " + key.sample, columns: columns)
                    lines += Self.fitted("      first at \(key.firstSeen)", columns: columns)
                }
            }
            lines.append("")
        }
        if badLines > 0 {
            lines.append("Bad lines: \(badLines)" + (badLines > badLineSamples.count ? ", the first \(badLineSamples.count):" : ""))
            for bad in badLineSamples { lines += Self.fitted("  \(bad.location): \(bad.reason)", columns: columns) }
            lines.append("")
        }
        for limit in limitsReached { lines += Self.wrap("Limit reached: " + limit, columns: columns) }
        let f = findings
        lines += Self.wrap(f.total == 0 ? "No drift: every key and kind is known to the model."
            : "Findings: \(Self.count(f.newKeys, "new key")), \(Self.count(f.newKinds, "new kind")), "
                + "\(Self.count(f.drift, "drift", plural: "drifts")), \(Self.count(f.missingKeys, "missing required key")).",
            columns: columns)
        return lines.map { TerminalText.escaped($0) }.joined(separator: "\n") + "\n"
    }

    static func count(_ n: Int, _ word: String, plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? word : plural ?? word + "s")
    }

    /// `string 3, number 1`, most seen first.
    static func types(_ types: [String: Int]) -> String {
        ordered(types).map(\.key).joined(separator: ",")
    }

    /// `string 98%, number 2%`, most seen first, rounded (`<1%`, `>99%` rather than 0% and 100%).
    static func percentages(_ types: [String: Int]) -> String {
        let total = max(types.values.reduce(0, +), 1)
        return ordered(types).map { type, count in
            let percent = Int((Double(count) * 100 / Double(total)).rounded())
            return "\(type) " + (percent == 0 ? "<1%" : percent == 100 && count < total ? ">99%" : "\(percent)%")
        }.joined(separator: ", ")
    }

    static func ordered(_ types: [String: Int]) -> [(key: String, value: Int)] {
        types.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
    }

    /// A path column of 28, a count of 6, then the detail; a longer path gets its own line.
    static func row(_ path: String, _ count: Int?, _ detail: String, columns: Int) -> [String] {
        let pathWidth = 28
        let countText = count.map { padLeft(String($0), 6) } ?? String(repeating: " ", count: 6)
        let escapedPath = TerminalText.escaped(path)
        if width(of: escapedPath) > pathWidth {
            return fitted("    " + escapedPath, columns: columns)
                + fitted("    " + String(repeating: " ", count: pathWidth) + countText + "  " + TerminalText.escaped(detail),
                         columns: columns)
        }
        return fitted("    " + padRight(escapedPath, pathWidth) + countText + "  " + TerminalText.escaped(detail),
                      columns: columns)
    }

    /// `text` escaped and cut with `…` to `columns`.
    static func fitted(_ text: String, columns: Int) -> [String] {
        let text = TerminalText.escaped(text)
        guard width(of: text) > columns else { return [text] }
        var kept = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars {
            let w = width(of: scalar)
            if used + w > columns - 1 { break }
            kept.append(scalar)
            used += w
        }
        return [String(kept) + "…"]
    }

    /// Words wrapped at `columns`, continuation lines indented by two.
    static func wrap(_ text: String, columns: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, width(of: line) + 1 + width(of: String(word)) > columns {
                lines.append(line)
                line = "  " + word
            } else {
                line += line.isEmpty ? String(word) : " " + word
            }
        }
        if !line.isEmpty { lines += fitted(line, columns: columns) }
        return lines
    }

    /// `text` after spaces up to `width` (numbers, right-aligned).
    static func padLeft(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    /// `text` followed by spaces up to `columns` terminal columns.
    static func padRight(_ text: String, _ columns: Int) -> String {
        let used = width(of: text)
        return used >= columns ? text : text + String(repeating: " ", count: columns - used)
    }

    /// Columns a terminal gives the text: wide East Asian and emoji characters two, combining marks none.
    static func width(of text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
    }

    static func width(of scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x0300...0x036F, 0x200B...0x200D, 0xFE00...0xFE0F: 0
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1FAFF, 0x20000...0x3FFFD:
            2
        default: 1
        }
    }
}
