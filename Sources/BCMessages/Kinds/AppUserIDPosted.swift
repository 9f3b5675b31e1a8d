extension BCResponse {
    /// t=49 `AppUserDetailCommentReceived`: a viewer posted their user id in the streamed game.
    ///
    /// From the 2022 app's model; no capture seen, so any scalar may come as a number or a string (an app user id
    /// sent as a number keeps every digit).
    public struct AppUserIDPosted: BCPayload, UserAttributed {
        /// Who posted: `u`, `ac`, `iurl`, `burl`.
        public var user: User
        /// `type`: the kind of app user detail; values not documented.
        @ForcibleInt public var type: Int
        /// `cm`: the viewer's user id in the streamed game, sent as the comment text.
        @ForcibleString public var appUserID: String
        /// `collab_streamer_ac`: the collab streamer's display name, `""` outside a collab.
        @ForcibleString public var collabStreamerName: String

        public init(
            user: User, type: Int, appUserID: String, collabStreamerName: String
        ) {
            self.user = user
            self.type = type
            self.appUserID = appUserID
            self.collabStreamerName = collabStreamerName
        }

        enum CodingKeys: String, CodingKey {
            case type
            case appUserID = "cm"
            case collabStreamerName = "collab_streamer_ac"
        }

        public init(from decoder: any Decoder) throws {
            user = try User(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _type = try container.decode(ForcibleInt.self, forKey: .type)
            _appUserID = try container.decode(ForcibleString.self, forKey: .appUserID)
            _collabStreamerName = try container.decode(ForcibleString.self, forKey: .collabStreamerName)
        }

        public func encode(to encoder: any Encoder) throws {
            try user.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(_type, forKey: .type)
            try container.encode(_appUserID, forKey: .appUserID)
            try container.encode(_collabStreamerName, forKey: .collabStreamerName)
        }
    }
}
