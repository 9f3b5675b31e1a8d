import Foundation
import BCMessages

/// The fixtures of one folder, in the folder's order (by `t`, then name), and the ways a person names some of
/// them: a fixture name, a `t`, or a kind. Shared by the command's arguments and the interactive prompt, so
/// both understand the same words. Pure: the files are read by `ReplayLoader`.
///
/// A query selects, in this order of precedence:
/// - a `t`: `35` (or `t=35`) selects every fixture of t=35;
/// - a fixture name, with or without `.json`: `35-gift-small-heart-captured-shape`;
/// - a kind, by its name in output or as file names spell it: `gift`, `viewerCountChanged`,
///   `viewer-count-changed`; `unknown` selects the fixtures whose `t` is of no known kind;
/// - the start of fixture names, in whole words: `35-gift-small-heart` selects every fixture whose name
///   starts with `35-gift-small-heart-` (here one; `35-gift-count` selects two).
///
/// Letter case does not matter.
public struct FixtureCatalog: Hashable, Sendable, Codable {
    /// The folder, as the user gave it or as found.
    public var folder: String
    /// Every fixture, in order of `t`, then name.
    public var fixtures: [Fixture]
    /// Files of the folder that could not be loaded.
    public var problems: [ReplayProblem]

    /// A catalog of these fixtures, put in the folder's order.
    public init(folder: String, fixtures: [Fixture], problems: [ReplayProblem] = []) {
        self.folder = folder
        self.fixtures = fixtures.sorted(by: Fixture.precedes)
        self.problems = problems
    }

    /// The word for fixtures whose `t` is of no known kind.
    public static let unknownKindName = "unknown"

    /// Some fixtures chosen by a query, and how to tell a person which.
    public struct Selection: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The query as typed.
        public var query: String
        /// The fixtures, in the folder's order.
        public var fixtures: [Fixture]
        /// What was chosen: `35-gift-small-heart-captured-shape`, `t=35 (gift): 8 fixtures`.
        public var description: String

        /// The fixtures chosen by `query`, in the folder's order, with what was chosen.
        public init(query: String, fixtures: [Fixture], description: String) {
            self.query = query
            self.fixtures = fixtures
            self.description = description
        }

        /// The fixtures as items to send.
        public var items: [ReplayItem] { fixtures.map(\.item) }
    }

    /// The fixtures `query` names (see the type's documentation), nil when it names none.
    public func select(_ query: String) -> Selection? {
        let word = Self.normalized(query)
        guard !word.isEmpty else { return nil }
        if let t = Self.t(in: word) {
            let chosen = fixtures.filter { $0.t == t }
            return chosen.isEmpty ? nil : Selection(query: query, fixtures: chosen,
                                                    description: "t=\(t) (\(Self.kindName(of: t))): \(count(chosen))")
        }
        if let fixture = fixtures.first(where: { $0.name.lowercased() == word }) {
            return Selection(query: query, fixtures: [fixture], description: fixture.name)
        }
        if word == Self.unknownKindName {
            let chosen = fixtures.filter { $0.kind == nil }
            return chosen.isEmpty ? nil : Selection(query: query, fixtures: chosen,
                                                    description: "kinds not in the catalogue: \(count(chosen))")
        }
        if let kind = Self.kind(named: word) {
            let chosen = fixtures.filter { $0.kind == kind }
            return chosen.isEmpty ? nil : Selection(query: query, fixtures: chosen,
                                                    description: "\(kind.name) (t=\(kind.rawValue)): \(count(chosen))")
        }
        let chosen = fixtures.filter { $0.name.lowercased().hasPrefix(word + "-") }
        switch chosen.count {
        case 0: return nil
        case 1: return Selection(query: query, fixtures: chosen, description: chosen[0].name)
        default: return Selection(query: query, fixtures: chosen, description: "\(word)-…: \(count(chosen))")
        }
    }

    /// The `t`s of the fixtures, ascending, each once.
    public var ts: [Int] {
        Array(Set(fixtures.compactMap(\.t))).sorted()
    }

    /// The kind names with at least one fixture, in order of `t`; `unknown` last when some fixture's `t` is of
    /// no known kind.
    public var kindNames: [String] {
        let known = Set(fixtures.compactMap(\.kind)).sorted { $0.rawValue < $1.rawValue }.map(\.name)
        let hasUnknown = fixtures.contains { $0.t != nil && $0.kind == nil }
        return known + (hasUnknown ? [Self.unknownKindName] : [])
    }

    /// Fixture names and kind names close to a query that selects nothing, best first, at most `limit`:
    /// kinds spelled nearly alike or containing the query (`gfit` → `gift`, `level` → `userLevelUp`), then
    /// fixture names containing it (`small-heart` → `35-gift-small-heart-captured-shape`).
    public func suggestions(for query: String, limit: Int = 5) -> [String] {
        let word = Self.normalized(query)
        guard word.count >= 3, Self.t(in: word) == nil else { return [] }
        let kinds = kindNames.filter { name in
            let lowered = name.lowercased()
            return lowered.contains(word) || Self.editDistance(lowered, word) <= 2
        }
        let names = fixtures.map(\.name).filter { $0.lowercased().contains(word) }
        return Array((kinds + names).prefix(limit))
    }

    // MARK: - Words

    /// The query as matched: trimmed, lowercased, without a `.json` extension.
    static func normalized(_ query: String) -> String {
        var word = query.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if word.hasSuffix(".json") { word = String(word.dropLast(5)) }
        return word
    }

    /// The `t` a word names: `35` or `t=35`.
    static func t(in word: String) -> Int? {
        let digits = word.hasPrefix("t=") ? word.dropFirst(2) : Substring(word)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(digits)
    }

    /// The kind a normalized word names: `gift`, `viewercountchanged` or `viewer-count-changed`.
    static func kind(named word: String) -> BCType? {
        BCType.allCases.first { $0.name.lowercased() == word || $0.kebabName == word }
    }

    static func kindName(of t: Int) -> String {
        BCType(rawValue: t)?.name ?? "unknown kind"
    }

    private func count(_ fixtures: [Fixture]) -> String {
        fixtures.count == 1 ? "1 fixture" : "\(fixtures.count) fixtures"
    }

    /// Levenshtein distance, for "did you mean".
    static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let lhs = Array(lhs), rhs = Array(rhs)
        guard !lhs.isEmpty else { return rhs.count }
        guard !rhs.isEmpty else { return lhs.count }
        var previous = Array(0...rhs.count)
        for (i, left) in lhs.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: rhs.count)
            for (j, right) in rhs.enumerated() {
                current[j + 1] = Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
            }
            previous = current
        }
        return previous[rhs.count]
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
