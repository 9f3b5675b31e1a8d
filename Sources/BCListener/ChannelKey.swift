import BCMessages

/// A bcsvr channel key (`bcsvr_key`, like `118f91f:UdoBre1M`) that is safe to put in a `SUB\t<key>` line.
///
/// Keys come from outside: `--key`, keys files, the live-info API, follow requests on NATS, recordings, clients of
/// the replay server. A key holding a TAB or a line break would send another command (`k1\nSUB\tvictim` subscribes
/// to `victim` as well), and one holding an escape or a bidi control would rewrite a terminal. So a key is checked
/// once, when it is made, and this type is the only way to a `SUB` line (`BCSVRCommand.subscribe(key:)`): an
/// invalid key cannot be represented. There is deliberately no `ExpressibleByStringLiteral` (it would have to trap
/// on a bad literal); write `try ChannelKey("118f91f:UdoBre1M")`.
public struct ChannelKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The longest key accepted, in UTF-8 bytes (a real key has about 16).
    public static let maxBytes = 256

    /// The key as sent after `SUB\t`: non-empty, at most `maxBytes` bytes, no space, TAB, line break, control or
    /// format character.
    public let text: String

    /// Checks `text`; throws what is wrong with it.
    public init(_ text: String) throws(Problem) {
        if let problem = Self.problem(with: text) { throw problem }
        self.text = text
    }

    /// Checks `text` that came from `origin` (`--key`, `keys.txt line 3`, `the live-info answer's bcsvr_key`…);
    /// the error names the origin and shows the value escaped.
    public init(_ text: String, from origin: String) throws(InvalidChannelKey) {
        do {
            try self.init(text)
        } catch {
            throw InvalidChannelKey(origin: origin, value: text, problem: error)
        }
    }

    public var description: String { text }

    public static func < (lhs: ChannelKey, rhs: ChannelKey) -> Bool { lhs.text < rhs.text }

    /// What is wrong with `text` as a key, or nil. Linear in its length; stops at the first problem.
    public static func problem(with text: String) -> Problem? {
        if text.isEmpty { return .empty }
        let bytes = text.utf8.count
        if bytes > maxBytes { return .tooLong(bytes: bytes) }
        for scalar in text.unicodeScalars where isForbidden(scalar) { return .forbiddenCharacter(scalar) }
        return nil
    }

    /// Space separators, line and paragraph separators, controls (TAB, CR, LF, ESC, DEL, C1) and format characters
    /// (bidi overrides and isolates, zero-width joiners, BOM).
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format: true
        default: false
        }
    }

    /// Why a text is not a channel key.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// The text is empty.
        case empty
        /// The text has more than `ChannelKey.maxBytes` UTF-8 bytes; `bytes` is how many it has.
        case tooLong(bytes: Int)
        /// The first forbidden character.
        case forbiddenCharacter(Unicode.Scalar)

        public var description: String {
            switch self {
            case .empty: "an empty key"
            case .tooLong(let bytes): "a key of \(bytes) bytes (at most \(ChannelKey.maxBytes))"
            case .forbiddenCharacter(let scalar):
                "a key with \(Self.name(of: scalar)) in it (a key has no space, TAB, line break, control or format character: it would break the SUB line)"
            }
        }

        private static func hexCount(_ scalar: Unicode.Scalar) -> Int {
            String(scalar.value, radix: 16).count
        }

        private static func name(of scalar: Unicode.Scalar) -> String {
            switch scalar {
            case " ": "a space"
            case "\t": "a TAB"
            case "\n", "\r", "\u{2028}", "\u{2029}", "\u{85}": "a line break"
            default: "U+" + String(repeating: "0", count: max(0, 4 - hexCount(scalar))) + String(scalar.value, radix: 16, uppercase: true)
            }
        }
    }
}

extension ChannelKey: Codable {
    /// A JSON string, checked like any other key.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// A key that is not a channel key, with where it came from: what a person reads.
public struct InvalidChannelKey: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the key came from: `--key`, `keys.txt line 3`, `the live-info answer's bcsvr_key`…
    public var origin: String
    /// The key as it came (untrusted: `description` shows it escaped and bounded).
    public var value: String
    /// What is wrong with `value` as a key.
    public var problem: ChannelKey.Problem

    /// The key `value` from `origin`, rejected for `problem`.
    public init(origin: String, value: String, problem: ChannelKey.Problem) {
        self.origin = origin
        self.value = value
        self.problem = problem
    }

    /// `<origin>: <problem>: "<value, escaped, at most 80 characters>"`, safe for a terminal. A TAB is written
    /// `\t` too (`TerminalText.escaped` keeps it): in a key it is the very thing being reported.
    public var description: String {
        let shown = TerminalText.escaped(TerminalText.excerpt(value, limit: 80)).replacing("\t", with: "\\t")
        return TerminalText.escaped("\(origin): \(problem): \"") + shown + "\""
    }
}
