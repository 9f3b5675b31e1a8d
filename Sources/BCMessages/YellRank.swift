/// `yell_rank`: a viewer's cheer (yell) rank. Unknown ranks are kept, never an error.
public enum YellRank: Hashable, Sendable {
    case none
    case cheerRookie1
    case cheerRookie2
    case cheerLeader1
    case cheerLeader2
    case cheerLeader3
    case cheerLeader4
    case cheerLeaderGold
    case cheerLeaderPlatinum
    case cheerLeaderDiamond
    case cheerLegend
    /// A rank the model does not know yet.
    case unrecognized(Int)
}

extension YellRank: RawRepresentable, ForcibleValue, Codable {
    private static let known: [YellRank] = [
        .none, .cheerRookie1, .cheerRookie2, .cheerLeader1, .cheerLeader2, .cheerLeader3, .cheerLeader4,
        .cheerLeaderGold, .cheerLeaderPlatinum, .cheerLeaderDiamond, .cheerLegend,
    ]

    public init(rawValue: Int) {
        self = Self.known.indices.contains(rawValue) ? Self.known[rawValue] : .unrecognized(rawValue)
    }

    public var rawValue: Int {
        if case .unrecognized(let value) = self { return value }
        return Self.known.firstIndex(of: self) ?? 0
    }

    public static var expectation: String { Int.expectation }

    public init(forcing container: any SingleValueDecodingContainer) throws {
        self.init(rawValue: try Int(forcing: container))
    }

    public func encodeCanonical(to container: inout any SingleValueEncodingContainer) throws {
        try container.encode(rawValue)
    }

    public init(from decoder: any Decoder) throws {
        try self.init(forcing: decoder.singleValueContainer())
    }

    public func encode(to encoder: any Encoder) throws {
        var container: any SingleValueEncodingContainer = encoder.singleValueContainer()
        try encodeCanonical(to: &container)
    }
}
