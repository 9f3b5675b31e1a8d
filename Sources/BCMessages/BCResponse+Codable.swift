extension BCResponse {
    /// The message's `t`.
    public var t: Int {
        if case .unknown(let unknown) = self { unknown.t } else { type?.rawValue ?? 0 }
    }

    /// The kind's short name (`"gift"`), `"unknown"` for a kind the model does not know.
    public var kind: String { type?.name ?? "unknown" }
}

/// The struct a `BCResponse` case carries: encoded and decoded in the message's own JSON object, beside `t`.
public protocol BCPayload: Codable, Hashable, Sendable {}

extension BCResponse: Codable {
    enum TypeKey: String, CodingKey { case t }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TypeKey.self)
        guard container.contains(.t) else {
            throw DecodingError.keyNotFound(TypeKey.t, .init(
                codingPath: decoder.codingPath,
                debugDescription: "Every bcsvr message names its kind in \"t\"; this one has no \"t\"."))
        }
        let t = try container.decode(ForcibleInt.self, forKey: .t).wrappedValue
        guard let type = BCType(rawValue: t) else {
            self = .unknown(try Unknown(from: decoder))
            return
        }
        self = try BCResponse(decoding: type, from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        if case .unknown(let unknown) = self {
            try unknown.encode(to: encoder)
            return
        }
        var container = encoder.container(keyedBy: TypeKey.self)
        try container.encode(t, forKey: .t)
        try payload?.encode(to: encoder)
    }
}
