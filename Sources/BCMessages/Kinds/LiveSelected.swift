extension BCResponse {
    /// t=9 `LiveSelected`: a viewer went to another live (meaning inferred from the fields).
    ///
    /// Captured. Wire extra: `target_live_id`, the live the viewer went to. `iurl` and `burl` may be absent.
    public struct LiveSelected: BCPayload, UserAttributed {
        /// Who left: `u`, `ac`, `iurl`, `burl`.
        public var user: User
        /// `owner_name`: the display name of the owner of the live the viewer went to.
        @ForcibleString public var ownerName: String
        /// `target_live_id`: the id of the live the viewer went to; seen on the wire only.
        @OptionalForcibleString public var targetLiveID: String?

        public init(
            user: User, ownerName: String, targetLiveID: String? = nil
        ) {
            self.user = user
            self.ownerName = ownerName
            self.targetLiveID = targetLiveID
        }

        enum CodingKeys: String, CodingKey {
            case ownerName = "owner_name"
            case targetLiveID = "target_live_id"
        }

        public init(from decoder: any Decoder) throws {
            user = try User(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _ownerName = try container.decode(ForcibleString.self, forKey: .ownerName)
            _targetLiveID = try container.decode(OptionalForcibleString.self, forKey: .targetLiveID)
        }

        public func encode(to encoder: any Encoder) throws {
            try user.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(_ownerName, forKey: .ownerName)
            try container.encode(_targetLiveID, forKey: .targetLiveID)
        }
    }
}
