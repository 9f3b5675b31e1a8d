extension BCType {
    /// How much to trust what the model says of a kind.
    public enum Evidence: String, Hashable, Sendable, Codable {
        /// Real payloads of this kind have been seen on the wire.
        case captured
        /// The official app decodes it with these keys; no capture has been seen.
        case appModel
        /// Keys from the app's model; the meaning is inferred from a name only.
        case appModelMeaningGuessed
        /// A third-party client reacts to this `t`; nothing is known of its fields.
        case clientCodeOnly
    }

    /// What a message of this kind means.
    public var meaning: String { Self.table[self]?.meaning ?? "" }

    /// The event name in the official app (`"GiftCommentReceived"`), or nil when the app does not know it.
    public var appEventName: String? { Self.table[self]?.appEventName }

    /// The evidence the model of this kind rests on.
    public var evidence: Evidence { Self.table[self]?.evidence ?? .clientCodeOnly }

    /// The payload struct carried by the `BCResponse` case (`"BCResponse.Gift"`), or nil for a bare case.
    public var payloadTypeName: String? { Self.table[self]?.payload.map { "BCResponse.\($0)" } }

    /// The top-level wire keys the kind's payload reads (the user block's and the comment class's included), from
    /// the catalogue: what strict mode accepts beside `t`, and what an audit of captures compares against. Empty
    /// for a bare case; nil for a kind whose payload keeps every key (t=110).
    public var wireKeys: [String]? {
        guard let info = Self.table[self] else { return [] }
        return info.keys
    }

    /// True for the kinds that end a live: a listener stops when it receives one.
    public var endsLive: Bool { self == .liveEnded || self == .streamEnded }

    /// Looks a kind up by its short name (`"gift"`).
    public init?(name: String) {
        guard let type = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = type
    }

    /// One row of the catalogue (`BCType.table`, generated from `Catalogue/Catalogue.swift`).
    struct Info {
        let meaning: String
        let appEventName: String?
        let evidence: Evidence
        let payload: String?
        let keys: [String]?
    }
}
