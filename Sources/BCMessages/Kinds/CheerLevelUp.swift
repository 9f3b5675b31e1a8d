extension BCResponse {
    /// t=116 `CheerLevelUpCommentReceived`: a viewer's cheer (yell) level went up, shown as a comment.
    ///
    /// From the 2022 app's model; no capture seen. The model has no `burl`. `is_yell_rank_up` is declared a JSON
    /// boolean but may well come as 0/1; both decode.
    public struct CheerLevelUp: BCPayload, UserAttributed {
        /// Who levelled up: `u`, `ac`, `iurl` (and `burl` if ever sent).
        public var user: User
        /// `cm`: the level-up comment text.
        @ForcibleString public var text: String
        /// `speech`: the text-to-speech line.
        @ForcibleString public var speech: String
        /// `is_yell_rank_up`: the cheer rank went up too, not only the level.
        @ForcibleBool public var isYellRankUp: Bool
        /// `yell_bonus_description`: what the new level earns the viewer.
        @ForcibleString public var yellBonusDescription: String
        /// `yell_level`: the viewer's new cheer level.
        @ForcibleInt public var yellLevel: Int
        /// `yell_lp_url`: a landing page about cheering.
        @ForcibleString public var yellLPURL: String
        /// `yell_rank`: the viewer's cheer rank after the level-up.
        public var yellRank: YellRank

        public init(
            user: User, text: String, speech: String, isYellRankUp: Bool, yellBonusDescription: String,
            yellLevel: Int, yellLPURL: String, yellRank: YellRank
        ) {
            self.user = user
            self.text = text
            self.speech = speech
            self.isYellRankUp = isYellRankUp
            self.yellBonusDescription = yellBonusDescription
            self.yellLevel = yellLevel
            self.yellLPURL = yellLPURL
            self.yellRank = yellRank
        }

        enum CodingKeys: String, CodingKey {
            case text = "cm"
            case speech
            case isYellRankUp = "is_yell_rank_up"
            case yellBonusDescription = "yell_bonus_description"
            case yellLevel = "yell_level"
            case yellLPURL = "yell_lp_url"
            case yellRank = "yell_rank"
        }

        public init(from decoder: any Decoder) throws {
            user = try User(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _text = try container.decode(ForcibleString.self, forKey: .text)
            _speech = try container.decode(ForcibleString.self, forKey: .speech)
            _isYellRankUp = try container.decode(ForcibleBool.self, forKey: .isYellRankUp)
            _yellBonusDescription = try container.decode(ForcibleString.self, forKey: .yellBonusDescription)
            _yellLevel = try container.decode(ForcibleInt.self, forKey: .yellLevel)
            _yellLPURL = try container.decode(ForcibleString.self, forKey: .yellLPURL)
            yellRank = try container.decode(YellRank.self, forKey: .yellRank)
        }

        public func encode(to encoder: any Encoder) throws {
            try user.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(_text, forKey: .text)
            try container.encode(_speech, forKey: .speech)
            try container.encode(_isYellRankUp, forKey: .isYellRankUp)
            try container.encode(_yellBonusDescription, forKey: .yellBonusDescription)
            try container.encode(_yellLevel, forKey: .yellLevel)
            try container.encode(_yellLPURL, forKey: .yellLPURL)
            try container.encode(yellRank, forKey: .yellRank)
        }
    }
}
