/// Why a message could not be turned into a `BCResponse`, with everything a person needs to find the cause:
/// the `t` and kind, the key path, what was expected, what came, and an excerpt of the raw message.
///
/// ```
/// t=35 (gift) at count: expected an integer or a numeric string, found "eight" in {"t":35,"count":"eight",…}
/// ```
public struct BCDecodingError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// What kind of mistake the message made, one case per rule it broke.
    public enum Reason: String, Hashable, Sendable, Codable {
        /// The text is not JSON, or not a JSON object.
        case malformedJSON
        /// The object has no `t`.
        case missingType
        /// A key the kind requires is absent.
        case missingKey
        /// A value has a type the model cannot accept.
        case typeMismatch
        /// A value is `null` where the model requires one.
        case nullValue
        /// Strict mode: the `t` is not in the catalogue.
        case unknownKind
        /// Strict mode: the message has keys the model does not know (listed in `unmodelledKeys`).
        case unmodelledKeys
    }

    /// What kind of failure.
    public var reason: Reason
    /// The message's `t`, when it could be read.
    public var t: Int?
    /// The kind's short name (`"gift"`), `"unknown"` for a `t` the model does not know, nil without a `t`.
    public var kind: String?
    /// Where in the message, as `rankings[0].r`; empty for the message itself.
    public var keyPath: String
    /// What the model accepts there.
    public var expected: String
    /// What the message has there.
    public var found: String
    /// The keys strict mode did not recognise, as key paths.
    public var unmodelledKeys: [String]
    /// The start of the raw message.
    public var excerpt: String

    /// An error from its parts; `excerpt` is the start of the raw message, `unmodelledKeys` what strict mode
    /// rejected.
    public init(reason: Reason, t: Int?, kind: String?, keyPath: String, expected: String, found: String,
                unmodelledKeys: [String] = [], excerpt: String) {
        self.reason = reason
        self.t = t
        self.kind = kind
        self.keyPath = keyPath
        self.expected = expected
        self.found = found
        self.unmodelledKeys = unmodelledKeys
        self.excerpt = excerpt
    }

    public var description: String {
        var text = ""
        if let t { text += "t=\(t) (\(kind ?? "unknown")) " }
        if !keyPath.isEmpty { text += "at \(keyPath): " }
        text += "expected \(expected), found \(found)"
        return text + " in \(excerpt)"
    }

    /// The longest excerpt of the raw message an error carries.
    public static let excerptLength = 120

    static func excerpt(of text: String) -> String {
        let flat = text.trimmingWhitespace()
        if flat.isEmpty { return "(nothing)" }
        return flat.count <= excerptLength ? flat : String(flat.prefix(excerptLength)) + "…"
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[start...end])
    }
}
