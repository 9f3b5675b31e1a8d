extension BCResponse {
    /// t=113 `LuckyPrizeReceived`: a viewer won a lucky prize.
    ///
    /// Known from the 2022 app's model only.
    public struct LuckyPrize: BCPayload, UserAttributed {
        /// Who won it: `u`, `ac`, `iurl`, `burl`.
        public var user: User
        /// `speech`: the text-to-speech line.
        @ForcibleString public var speech: String
        /// `reward_title`: the prize's name.
        @ForcibleString public var rewardTitle: String
        /// `reward_image_url`: the prize's image.
        @ForcibleString public var rewardImageURL: String

        public init(user: User, speech: String, rewardTitle: String, rewardImageURL: String) {
            self.user = user
            self.speech = speech
            self.rewardTitle = rewardTitle
            self.rewardImageURL = rewardImageURL
        }

        enum CodingKeys: String, CodingKey {
            case speech
            case rewardTitle = "reward_title"
            case rewardImageURL = "reward_image_url"
        }

        public init(from decoder: any Decoder) throws {
            user = try User(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _speech = try container.decode(ForcibleString.self, forKey: .speech)
            _rewardTitle = try container.decode(ForcibleString.self, forKey: .rewardTitle)
            _rewardImageURL = try container.decode(ForcibleString.self, forKey: .rewardImageURL)
        }

        public func encode(to encoder: any Encoder) throws {
            try user.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(_speech, forKey: .speech)
            try container.encode(_rewardTitle, forKey: .rewardTitle)
            try container.encode(_rewardImageURL, forKey: .rewardImageURL)
        }
    }
}
