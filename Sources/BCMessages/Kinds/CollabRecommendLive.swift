extension BCResponse {
    /// t=77 `CollabRecommendLive`: a live is recommended for a collab, shown as a comment.
    ///
    /// From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
    public struct CollabRecommendLive: BCPayload, UserAttributed {
        /// Who the recommendation is shown as: `u`, `ac`, `iurl`, `burl`.
        public var user: User
        /// `cm`: the recommendation text.
        @ForcibleString public var text: String
        /// `speech`: the text-to-speech line.
        @ForcibleString public var speech: String
        /// `live_id`: the id of the recommended live.
        @ForcibleString public var liveID: String

        public init(
            user: User, text: String, speech: String, liveID: String
        ) {
            self.user = user
            self.text = text
            self.speech = speech
            self.liveID = liveID
        }

        enum CodingKeys: String, CodingKey {
            case text = "cm"
            case speech
            case liveID = "live_id"
        }

        public init(from decoder: any Decoder) throws {
            user = try User(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _text = try container.decode(ForcibleString.self, forKey: .text)
            _speech = try container.decode(ForcibleString.self, forKey: .speech)
            _liveID = try container.decode(ForcibleString.self, forKey: .liveID)
        }

        public func encode(to encoder: any Encoder) throws {
            try user.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(_text, forKey: .text)
            try container.encode(_speech, forKey: .speech)
            try container.encode(_liveID, forKey: .liveID)
        }
    }
}
