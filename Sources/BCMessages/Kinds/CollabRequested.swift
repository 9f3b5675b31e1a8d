extension BCResponse {
    /// t=10 `CollabRequested`: a viewer asked to join the live as a collab (co-stream) partner.
    ///
    /// From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
    public struct CollabRequested: BCPayload, UserAttributed {
        /// Who asked: `u`, `ac`, `iurl`, `burl`.
        public var user: User
        /// `collab_type`: a call or a co-stream; the app's model allows it to be absent.
        public var collabType: CollabType?
        /// `is_reconnect`: the requester is reconnecting to a collab that dropped, not asking anew.
        @ForcibleBool public var isReconnect: Bool

        public init(user: User, collabType: CollabType? = nil, isReconnect: Bool) {
            self.user = user
            self.collabType = collabType
            self.isReconnect = isReconnect
        }

        enum CodingKeys: String, CodingKey {
            case collabType = "collab_type"
            case isReconnect = "is_reconnect"
        }

        public init(from decoder: any Decoder) throws {
            user = try User(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            collabType = try container.decodeIfPresent(CollabType.self, forKey: .collabType)
            _isReconnect = try container.decode(ForcibleBool.self, forKey: .isReconnect)
        }

        public func encode(to encoder: any Encoder) throws {
            try user.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(collabType, forKey: .collabType)
            try container.encode(_isReconnect, forKey: .isReconnect)
        }
    }
}
