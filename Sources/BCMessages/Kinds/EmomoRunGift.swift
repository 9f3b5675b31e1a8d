extension BCResponse {
    /// t=66 `EmomoRunGiftSent`: a viewer sent a gift that acts in the emomo-run mini-game.
    ///
    /// From the 2022 app's model; no capture seen, so any scalar may come as a number or a string. The user
    /// block has no `burl` in the app's model.
    public struct EmomoRunGift: BCPayload, UserAttributed {
        /// Who sent it: `u`, `ac`, `iurl`.
        public var user: User
        /// `consumed_score`: the score the gift used up.
        @ForcibleInt public var consumedScore: Int
        /// `game_gift_command`: what the gift makes the game do.
        @ForcibleString public var gameGiftCommand: String
        /// `game_gift_id`: the game gift's id (an int in the app's model).
        @ForcibleInt public var gameGiftID: Int
        /// `game_gift_type`: the game gift's type (values not known).
        @ForcibleInt public var gameGiftType: Int
        /// `gift_event_id`: the gift event the game belongs to (an int in the app's model).
        @ForcibleInt public var giftEventID: Int

        public init(user: User, consumedScore: Int, gameGiftCommand: String, gameGiftID: Int, gameGiftType: Int,
                    giftEventID: Int) {
            self.user = user
            self.consumedScore = consumedScore
            self.gameGiftCommand = gameGiftCommand
            self.gameGiftID = gameGiftID
            self.gameGiftType = gameGiftType
            self.giftEventID = giftEventID
        }

        enum CodingKeys: String, CodingKey {
            case consumedScore = "consumed_score"
            case gameGiftCommand = "game_gift_command"
            case gameGiftID = "game_gift_id"
            case gameGiftType = "game_gift_type"
            case giftEventID = "gift_event_id"
        }

        public init(from decoder: any Decoder) throws {
            user = try User(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _consumedScore = try container.decode(ForcibleInt.self, forKey: .consumedScore)
            _gameGiftCommand = try container.decode(ForcibleString.self, forKey: .gameGiftCommand)
            _gameGiftID = try container.decode(ForcibleInt.self, forKey: .gameGiftID)
            _gameGiftType = try container.decode(ForcibleInt.self, forKey: .gameGiftType)
            _giftEventID = try container.decode(ForcibleInt.self, forKey: .giftEventID)
        }

        public func encode(to encoder: any Encoder) throws {
            try user.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(_consumedScore, forKey: .consumedScore)
            try container.encode(_gameGiftCommand, forKey: .gameGiftCommand)
            try container.encode(_gameGiftID, forKey: .gameGiftID)
            try container.encode(_gameGiftType, forKey: .gameGiftType)
            try container.encode(_giftEventID, forKey: .giftEventID)
        }
    }
}
