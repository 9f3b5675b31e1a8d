extension BCResponse {
    /// t=16 `LiveUrlShared`: a viewer shared the live's URL.
    ///
    /// From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
    public struct LiveURLShared: BCPayload, UserAttributed {
        /// Who shared: `u`, `ac`, `iurl`, `burl`.
        public var user: User
        /// `is_moderator`: the viewer moderates this live.
        @ForcibleBool public var isModerator: Bool

        public init(
            user: User, isModerator: Bool
        ) {
            self.user = user
            self.isModerator = isModerator
        }

        enum CodingKeys: String, CodingKey {
            case isModerator = "is_moderator"
        }

        public init(from decoder: any Decoder) throws {
            user = try User(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _isModerator = try container.decode(ForcibleBool.self, forKey: .isModerator)
        }

        public func encode(to encoder: any Encoder) throws {
            try user.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(_isModerator, forKey: .isModerator)
        }
    }
}
