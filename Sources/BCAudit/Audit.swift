import BCMessages

/// Compares captured messages with the model, message by message, and tallies what differs: per kind, how many
/// messages; the keys the model does not know (at any depth: `rankings[].x`); the known keys whose JSON types
/// vary or are not what the catalogue declares; the required keys that were missing; the kinds the model does
/// not know; the lines that could not be read. `report()` gives the result.
///
/// ```swift
/// import BCAudit
///
/// var audit = Audit()
/// for (number, line) in capture.split(separator: "\n").enumerated() {   // NDJSON recordings, frames, messages
///     audit.add(line: String(line), at: AuditLocation(source: "live.ndjson", line: number + 1))
/// }
/// let report = audit.report()
/// for kind in report.kinds where !kind.newKeys.isEmpty { print(kind.kind, kind.newKeys.map(\.path)) }
/// ```
///
/// The keys the model knows are `BCType.wireFields`, generated from `Catalogue/`: the one place a key is declared.
///
/// Work is linear in the input: each value is looked at once, each key costs one dictionary lookup of a path
/// whose keys are cut at `Limits.maxKeyBytes`. Memory is bounded whatever the input: at most `Limits.maxPaths`
/// paths are tracked per kind and `Limits.maxUnknownKinds` unknown kinds; what goes beyond is counted, not kept,
/// and the report says that a limit was reached. Samples are cut at `Limits.sampleScalars`.
public struct Audit: Sendable {
    /// The bounds of an audit's memory: what goes past them is counted, not kept, and the report says so.
    public struct Limits: Hashable, Sendable {
        /// Distinct key paths tracked per kind (known ones included).
        public var maxPaths: Int
        /// Distinct unknown `t` values tracked.
        public var maxUnknownKinds: Int
        /// A key longer than this (in UTF-8 bytes) is cut, with `…`, before it becomes part of a path.
        public var maxKeyBytes: Int
        /// Unicode scalars kept of a sample value.
        public var sampleScalars: Int
        /// Bad lines quoted in the report (all are counted).
        public var badLineSamples: Int

        /// Limits for an audit; the defaults suit a capture of a whole live.
        public init(maxPaths: Int = 1000, maxUnknownKinds: Int = 256, maxKeyBytes: Int = 120, sampleScalars: Int = 60,
                    badLineSamples: Int = 10) {
            self.maxPaths = maxPaths
            self.maxUnknownKinds = maxUnknownKinds
            self.maxKeyBytes = maxKeyBytes
            self.sampleScalars = sampleScalars
            self.badLineSamples = badLineSamples
        }
    }

    /// The bounds this audit keeps to.
    public let limits: Limits
    private var kinds: [Int: KindTally] = [:]
    private var unknownKinds: [Int: UnknownTally] = [:]
    private var untrackedUnknownKindMessages = 0
    private var messages = 0
    private var reencoded = 0
    private var skipped = 0
    private var badLines = 0
    private var badLineSamples: [AuditReport.BadLine] = []
    /// The comments API's answers seen (`BacklogAudit.swift`).
    var backlog = BacklogTally()

    /// An empty audit.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    // MARK: - Input

    /// Reads one line of a capture (`AuditInput.detect`) and audits what it holds.
    public mutating func add(line: String, at location: AuditLocation) {
        for input in AuditInput.detect(line) { add(input, at: location) }
    }

    /// Audits what one line held, as `AuditInput.detect` classified it: a message is compared, a re-encoded
    /// line counted, a bad one quoted.
    public mutating func add(_ input: AuditInput, at location: AuditLocation) {
        switch input {
        case .wire(let json, _): add(message: json, at: location)
        case .reencoded(let t, _): countReencoded(t: t)
        case .reencodedUnknown(let json): add(message: json, at: location)  // its keys are the wire's: compared
        case .skipped: skipped += 1
        case .backlogAnswer(let json): add(backlogAnswer: json, at: location)
        case .backlogReencoded: backlog.reencoded += 1
        case .bad(let reason): addBadLine(reason: reason, at: location)
        }
    }

    /// Counts a line that could not be read (quoting the first few in the report).
    public mutating func addBadLine(reason: String, at location: AuditLocation) {
        badLines += 1
        if badLineSamples.count < limits.badLineSamples {
            badLineSamples.append(AuditReport.BadLine(location: location, reason: excerpt(reason, limit: 200)))
        }
    }

    private mutating func countReencoded(t: Int) {
        if BCType(rawValue: t) != nil {
            kinds[t, default: KindTally()].reencoded += 1
        } else {
            countUnknown(t: t, sample: nil, at: nil)
        }
        reencoded += 1
    }

    /// Audits one message's JSON text as received.
    public mutating func add(message json: String, at location: AuditLocation) {
        let bytes = Array(json.utf8)
        let root: AuditJSON
        do {
            root = try AuditJSON.parse(bytes)
        } catch {
            return addBadLine(reason: error.reason, at: location)
        }
        guard case .object(let members, _) = root else {
            return addBadLine(reason: "a message that is not a JSON object", at: location)
        }
        guard let t = Self.kind(of: root, bytes: bytes) else {
            return addBadLine(reason: "a message without an integer t", at: location)
        }
        messages += 1
        guard let type = BCType(rawValue: t), let shape = KindShape.all[type] else {
            return countUnknown(t: t, sample: sample(bytes, root.range), at: location)
        }
        // Taken out of `kinds` while it changes, so that its tables are not copied (copy on write) per message.
        var walk = Walk(bytes: bytes, shape: shape, location: location, limits: limits,
                        tally: kinds.removeValue(forKey: t) ?? KindTally())
        walk.tally.messages += 1
        walk.object(members, at: "")
        kinds[t] = walk.tally
    }

    /// `t` as a number or a numeric string (as the decoder reads it).
    private static func kind(of message: AuditJSON, bytes: [UInt8]) -> Int? {
        switch message["t"] {
        case .number(let range)?: Int(String(decoding: bytes[range], as: UTF8.self))
        case .string(let text, _)?: Int(text)
        default: nil
        }
    }

    private mutating func countUnknown(t: Int, sample: String?, at location: AuditLocation?) {
        if var tally = unknownKinds[t] {
            tally.messages += 1
            if tally.sample == nil, let sample, let location { (tally.sample, tally.firstSeen) = (sample, location) }
            unknownKinds[t] = tally
        } else if unknownKinds.count < limits.maxUnknownKinds {
            unknownKinds[t] = UnknownTally(messages: 1, sample: sample, firstSeen: location)
        } else {
            untrackedUnknownKindMessages += 1
        }
    }

    private func sample(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        Self.sample(bytes, range, scalars: limits.sampleScalars)
    }

    /// The value's text as received, cut at `scalars` Unicode scalars (`… (N bytes)` then says how long it was).
    static func sample(_ bytes: [UInt8], _ range: Range<Int>, scalars: Int) -> String {
        let head = String(decoding: bytes[range.lowerBound..<min(range.upperBound, range.lowerBound + scalars * 4)],
                          as: UTF8.self)
        var kept = String.UnicodeScalarView()
        var iterator = head.unicodeScalars.makeIterator()
        while kept.count < scalars, let scalar = iterator.next() { kept.append(scalar) }
        let whole = iterator.next() == nil && range.count <= scalars * 4
        return whole ? String(kept) : String(kept) + "… (\(range.count) bytes)"
    }

    private func excerpt(_ text: String, limit: Int) -> String {
        TerminalText.excerpt(text, limit: limit)
    }

    // MARK: - Walking one message

    private struct Walk {
        let bytes: [UInt8]
        let shape: KindShape
        let location: AuditLocation
        let limits: Limits
        var tally: KindTally

        mutating func object(_ members: [(key: String, value: AuditJSON)], at parent: String) {
            if let required = shape.required[parent] {
                let present = Set(members.map(\.key))  // a null is present: a type the field may refuse (drift)
                for key in required where !present.contains(key) {
                    tally.missing(join(parent, key), at: location)
                }
            }
            for (key, value) in members {
                if parent.isEmpty && key == "t" { continue }
                member(value, at: join(parent, clipped(key)))
            }
        }

        mutating func member(_ value: AuditJSON, at path: String) {
            guard let fields = shape.fields else {
                // A payload that keeps every key (t=110): every key is known, none declared; top level only.
                return record(value, at: path, field: nil, known: true)
            }
            guard let field = fields[path] else { return record(value, at: path, field: nil, known: false) }
            record(value, at: path, field: field, known: true)
            switch (value, field.form) {
            case (.object(let members, _), .object):
                object(members, at: path)
            case (.array(let elements, _), .array):
                let elementPath = path + "[]"
                guard let element = fields[elementPath] else { return }
                for item in elements {
                    record(item, at: elementPath, field: element, known: true)
                    if case .object(let members, _) = item, element.form == .object { object(members, at: elementPath) }
                }
            default:
                break
            }
        }

        mutating func record(_ value: AuditJSON, at path: String, field: BCWireField?, known: Bool) {
            let type = value.type
            if var entry = tally.paths[path] {
                tally.paths[path] = nil
                entry.count(type)
                if entry.sample == nil || entry.wantsUnexpectedSample(type) {
                    entry.keepSample(Audit.sample(bytes, value.range, scalars: limits.sampleScalars), of: type,
                                     at: location)
                }
                tally.paths[path] = entry
                return
            }
            guard tally.paths.count < limits.maxPaths else {
                tally.untrackedKeys += 1
                return
            }
            var entry = PathTally(known: known, field: field, firstSeen: location)
            entry.count(type)
            entry.keepSample(Audit.sample(bytes, value.range, scalars: limits.sampleScalars), of: type, at: location)
            tally.paths[path] = entry
        }

        func join(_ parent: String, _ key: String) -> String {
            parent.isEmpty ? key : parent + "." + key
        }

        func clipped(_ key: String) -> String { Audit.clipped(key, maxBytes: limits.maxKeyBytes) }
    }

    /// A key cut at `maxBytes`, so that a path's length, and the cost of looking it up, is bounded.
    static func clipped(_ key: String, maxBytes: Int) -> String {
        guard key.utf8.count > maxBytes else { return key }
        var kept = String.UnicodeScalarView()
        var size = 0
        for scalar in key.unicodeScalars {
            size += String(scalar).utf8.count
            if size > maxBytes { break }
            kept.append(scalar)
        }
        return String(kept) + "…"
    }

    // MARK: - Tallies

    struct KindTally: Sendable {
        var messages = 0
        var reencoded = 0
        var paths: [String: PathTally] = [:]
        var missing: [String: (count: Int, firstSeen: AuditLocation)] = [:]
        /// Occurrences of keys not tracked because `maxPaths` was reached.
        var untrackedKeys = 0

        mutating func missing(_ path: String, at location: AuditLocation) {
            if let entry = missing[path] {
                missing[path] = (entry.count + 1, entry.firstSeen)
            } else {
                missing[path] = (1, location)
            }
        }
    }

    struct PathTally: Sendable {
        let known: Bool
        let field: BCWireField?
        let firstSeen: AuditLocation
        /// Occurrences per `JSONType`, in `JSONType.allCases` order.
        var types = [Int](repeating: 0, count: BCWireField.JSONType.allCases.count)
        var sample: String?
        /// For a known key, a value of a type its field does not accept, and where.
        var unexpectedSample: (value: String, location: AuditLocation)?

        init(known: Bool, field: BCWireField?, firstSeen: AuditLocation) {
            self.known = known
            self.field = field
            self.firstSeen = firstSeen
        }

        static func index(_ type: BCWireField.JSONType) -> Int {
            switch type {
            case .null: 0
            case .boolean: 1
            case .number: 2
            case .string: 3
            case .array: 4
            case .object: 5
            }
        }

        mutating func count(_ type: BCWireField.JSONType) { types[Self.index(type)] += 1 }
        func typeCount(_ type: BCWireField.JSONType) -> Int { types[Self.index(type)] }

        func wantsUnexpectedSample(_ type: BCWireField.JSONType) -> Bool {
            guard let field, unexpectedSample == nil else { return false }
            return !field.acceptedTypes.contains(type)
        }

        mutating func keepSample(_ value: String, of type: BCWireField.JSONType, at location: AuditLocation) {
            if sample == nil { sample = value }
            if let field, unexpectedSample == nil, !field.acceptedTypes.contains(type) {
                unexpectedSample = (value, location)
            }
        }

        var seen: [BCWireField.JSONType: Int] {
            var result: [BCWireField.JSONType: Int] = [:]
            for type in BCWireField.JSONType.allCases where typeCount(type) > 0 { result[type] = typeCount(type) }
            return result
        }
    }

    struct UnknownTally: Sendable {
        var messages: Int
        var sample: String?
        var firstSeen: AuditLocation?
    }

    /// A kind's fields by path, and its required keys by the path of the object that must hold them.
    struct KindShape: Sendable {
        /// nil for a payload that keeps every key.
        let fields: [String: BCWireField]?
        let required: [String: [String]]

        init(_ type: BCType) {
            guard let list = type.wireFields else {
                fields = nil
                required = [:]
                return
            }
            fields = Dictionary(list.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
            var required: [String: [String]] = [:]
            for field in list where !field.isOptional && !field.path.hasSuffix("[]") {
                let (parent, key) = Self.split(field.path)
                required[parent, default: []].append(key)
            }
            self.required = required
        }

        /// `rankings[].ei` → (`rankings[]`, `ei`); `coins` → (``, `coins`).
        static func split(_ path: String) -> (String, String) {
            guard let dot = path.lastIndex(of: ".") else { return ("", path) }
            return (String(path[..<dot]), String(path[path.index(after: dot)...]))
        }

        static let all: [BCType: KindShape] = Dictionary(uniqueKeysWithValues: BCType.allCases.map { ($0, KindShape($0)) })
    }

    // MARK: - Report

    /// What was found. With `listingKnownKeys`, each kind also lists every known key seen with its JSON types
    /// (`AuditReport.Kind.keys`): `coins` a string 100% of the time, declared `int`, is no drift, but shows there.
    public func report(listingKnownKeys: Bool = false) -> AuditReport {
        var reportKinds: [AuditReport.Kind] = []
        for (t, tally) in kinds.sorted(by: { $0.key < $1.key }) {
            let name = BCType(rawValue: t)?.name ?? "?"
            var kind = AuditReport.Kind(t: t, kind: name, messages: tally.messages, reencoded: tally.reencoded)
            for (path, entry) in tally.paths.sorted(by: { $0.key < $1.key }) {
                let seen = entry.seen
                let types = Dictionary(uniqueKeysWithValues: seen.map { ($0.key.rawValue, $0.value) })
                let total = seen.values.reduce(0, +)
                if !entry.known {
                    kind.newKeys.append(AuditReport.NewKey(path: path, count: total, types: types,
                                                           sample: entry.sample ?? "", firstSeen: entry.firstSeen))
                    continue
                }
                if listingKnownKeys {
                    kind.keys = (kind.keys ?? []) + [AuditReport.KnownKey(
                        path: path, declared: entry.field?.form.rawValue, optional: entry.field?.isOptional,
                        count: total, types: types)]
                }
                let nonNull = seen.keys.filter { $0 != .null }
                let unexpected = entry.field.map { field in seen.keys.filter { !field.acceptedTypes.contains($0) } } ?? []
                guard nonNull.count > 1 || !unexpected.isEmpty else { continue }
                kind.drift.append(AuditReport.Drift(
                    path: path, declared: entry.field?.form.rawValue, optional: entry.field?.isOptional,
                    count: total, types: types, unexpected: unexpected.sorted().map(\.rawValue),
                    unexpectedSample: entry.unexpectedSample?.value, unexpectedAt: entry.unexpectedSample?.location))
            }
            for (path, entry) in tally.missing.sorted(by: { $0.key < $1.key }) {
                kind.missing.append(AuditReport.Missing(path: path, count: entry.count, firstSeen: entry.firstSeen))
            }
            kind.untrackedKeys = tally.untrackedKeys
            reportKinds.append(kind)
        }
        let unknown = unknownKinds.sorted(by: { $0.key < $1.key }).map { t, tally in
            AuditReport.UnknownKind(t: t, messages: tally.messages, sample: tally.sample, firstSeen: tally.firstSeen)
        }
        var limitsReached: [String] = []
        let capped = reportKinds.filter { $0.untrackedKeys > 0 }
        if !capped.isEmpty {
            let occurrences = capped.map(\.untrackedKeys).reduce(0, +)
            limitsReached.append("more than \(limits.maxPaths) distinct key paths in "
                + capped.map { "t=\($0.t)" }.joined(separator: ", ")
                + ": \(occurrences) occurrence\(occurrences == 1 ? "" : "s") of further keys counted, not named")
        }
        if untrackedUnknownKindMessages > 0 {
            limitsReached.append("more than \(limits.maxUnknownKinds) unknown kinds: \(untrackedUnknownKindMessages) "
                + "message\(untrackedUnknownKindMessages == 1 ? "" : "s") of further ones counted, not named")
        }
        if backlog.untrackedKeys > 0 {
            limitsReached.append("more than \(limits.maxPaths) distinct keys in backlog comments: "
                + "\(backlog.untrackedKeys) occurrences of further keys counted, not named")
        }
        return AuditReport(messages: messages, reencoded: reencoded, skippedLines: skipped, badLines: badLines,
                           badLineSamples: badLineSamples, kinds: reportKinds, unknownKinds: unknown,
                           untrackedUnknownKindMessages: untrackedUnknownKindMessages, limitsReached: limitsReached,
                           backlog: backlogReport())
    }
}
