import Foundation
import BCConsole
import BCMessages

/// The words of the interactive prompt of `bcstream replay`: what completes a typed text, and which
/// fixtures a typed line pushes to every subscriber. Pure: it reads only the catalog it is given.
///
/// A line is one word, understood as `FixtureCatalog.select(_:)` understands an argument: a `t` (`35`), a
/// fixture name (`35-gift-small-heart-captured-shape`, or its start in whole words), or a kind (`gift`).
public struct PromptCompletion: Hashable, Sendable, PromptCompleting {
    /// The fixtures the prompt offers.
    public let catalog: FixtureCatalog

    /// Completion over the fixtures of `catalog`.
    public init(catalog: FixtureCatalog) {
        self.catalog = catalog
    }

    /// What a typed line does.
    public enum Resolution: Hashable, Sendable {
        /// Push these fixtures, in order, to every subscriber; the selection says which, for the person.
        case push(FixtureCatalog.Selection)
        /// Nothing matches: a message saying what may have been meant and what can be typed.
        case noMatch(String)
        /// A blank line: nothing to do.
        case empty
    }

    /// The words that complete `typed`, letter case aside: the `t`s that start with it (when it is a number,
    /// `t=` allowed), then kind names, then fixture names, each group in the catalog's order. Everything when
    /// nothing is typed yet. A fixture name that holds a control or bidi character (`TerminalText` would escape
    /// it) is never offered: the line editor prints completions as they are. Its `t` and kind still push it.
    public func completions(for typed: String) -> [String] {
        let word = typed.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        var candidates: [String] = []
        let number = word.hasPrefix("t=") ? String(word.dropFirst(2)) : word
        if number.allSatisfy(\.isASCIIDigit) {
            let prefix = word.hasPrefix("t=") ? "t=" : ""
            candidates += catalog.ts.map(String.init).filter { $0.hasPrefix(number) }.map { prefix + $0 }
        }
        candidates += catalog.kindNames.filter { $0.lowercased().hasPrefix(word) }
        candidates += catalog.fixtures.map(\.name).filter {
            $0.lowercased().hasPrefix(word) && !$0.unicodeScalars.contains(where: TerminalText.needsEscaping)
        }
        return candidates
    }

    /// The text Tab puts in place of `typed`: the longest start every completion shares (in the catalog's
    /// spelling), or `typed` itself when nothing completes it.
    public func completedText(for typed: String) -> String {
        let candidates = completions(for: typed)
        guard let first = candidates.first else { return typed }
        let shared = candidates.dropFirst().reduce(Substring(first)) { shared, candidate in
            shared.commonPrefix(with: candidate)
        }
        return String(shared)
    }

    /// What a typed line pushes, or why it pushes nothing.
    public func resolve(_ line: String) -> Resolution {
        let word = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !word.isEmpty else { return .empty }
        if let selection = catalog.select(word) { return .push(selection) }
        return .noMatch(noMatchMessage(for: word))
    }

    /// What the prompt accepts, for a first line or a `help`.
    public var help: String {
        let example = catalog.fixtures.first { $0.kind == .gift } ?? catalog.fixtures.first
        let name = example?.name ?? "35-gift-small-heart-captured-shape"
        let t = example?.t.map(String.init) ?? "35"
        let kind = example?.kind?.name ?? "gift"
        return "Type a fixture name (\(name)), a t (\(t)) or a kind (\(kind)) to push it to every subscriber; "
            + "Tab completes."
    }

    private func noMatchMessage(for word: String) -> String {
        let lowered = CatalogWord(word)
        if let t = lowered.t {
            return "no fixture of t=\(t) (\(FixtureCatalog.kindName(of: t))) in \(catalog.folder)"
                + nearest(to: t) + ". " + help
        }
        if let kind = FixtureCatalog.kind(named: lowered.text) {
            return "no fixture of \(kind.name) (t=\(kind.rawValue)) in \(catalog.folder). " + help
        }
        var guesses = completions(for: word)
        for suggestion in catalog.suggestions(for: word) where !guesses.contains(suggestion) {
            guesses.append(suggestion)
        }
        let guess = guesses.isEmpty ? "" : " Did you mean \(guesses.prefix(5).joined(separator: ", "))?"
        return "nothing matches \"\(word)\".\(guess) " + help
    }

    /// `; the nearest ts with fixtures are 39 and 49`, or nothing when there are none.
    private func nearest(to t: Int) -> String {
        let below = catalog.ts.last { $0 < t }
        let above = catalog.ts.first { $0 > t }
        switch (below, above) {
        case (let below?, let above?): return "; the nearest ts with fixtures are \(below) and \(above)"
        case (let only?, nil), (nil, let only?): return "; the nearest t with fixtures is \(only)"
        case (nil, nil): return ""
        }
    }
}

/// A typed word as the catalog matches it.
private struct CatalogWord {
    let text: String
    let t: Int?

    init(_ word: String) {
        text = FixtureCatalog.normalized(word)
        t = FixtureCatalog.t(in: text)
    }
}

extension Substring {
    /// The longest start this text shares with `other`, letter case aside; in this text's spelling.
    func commonPrefix(with other: String) -> Substring {
        var end = startIndex
        var otherIndex = other.startIndex
        while end < endIndex, otherIndex < other.endIndex, self[end].lowercased() == other[otherIndex].lowercased() {
            end = index(after: end)
            otherIndex = other.index(after: otherIndex)
        }
        return self[startIndex..<end]
    }
}
