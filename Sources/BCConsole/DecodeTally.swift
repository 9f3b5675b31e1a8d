import BCMessages

/// Counts what a run decoded, for the summary on stderr: messages per kind, unknown kinds, errors.
public struct DecodeTally: Sendable {
    /// Counted by `BCType`, named only when the summary is made: hashing an enum costs less than a name per message.
    private var perType: [BCType: Int] = [:]
    /// Messages of kinds the model does not know, by `t`.
    public private(set) var unknownTypes: [Int: Int] = [:]
    /// Messages that failed to decode.
    public private(set) var errors = 0

    /// A tally of nothing yet.
    public init() {}

    /// Messages per kind name (`"gift"`).
    public var perKind: [String: Int] {
        Dictionary(uniqueKeysWithValues: perType.map { ($0.key.name, $0.value) })
    }

    /// Every message counted: decoded, unknown and failed.
    public var messages: Int { perType.values.reduce(0, +) + unknownTypes.values.reduce(0, +) + errors }

    /// Counts a message that decoded, by its kind (or its `t` when the kind is unknown).
    public mutating func count(_ response: BCResponse) {
        if let type = response.type {
            perType[type, default: 0] += 1
        } else if case .unknown(let unknown) = response {
            unknownTypes[unknown.t, default: 0] += 1
        }
    }

    /// Counts a message that failed to decode.
    public mutating func countError() {
        errors += 1
    }

    /// `12 messages: 5 comment, 4 gift, 2 join; 1 unknown (t=999 ×1); 0 errors`
    public var summary: String {
        let kinds = perKind.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.value) \($0.key)" }
        var text = "\(messages) message\(messages == 1 ? "" : "s")"
        if !kinds.isEmpty { text += ": " + kinds.joined(separator: ", ") }
        if !unknownTypes.isEmpty {
            let unknown = unknownTypes.values.reduce(0, +)
            let types = unknownTypes.sorted { $0.key < $1.key }.map { "t=\($0.key) ×\($0.value)" }
            text += "; \(unknown) unknown (\(types.joined(separator: ", ")))"
        }
        text += "; \(errors) error\(errors == 1 ? "" : "s")"
        return text
    }
}
