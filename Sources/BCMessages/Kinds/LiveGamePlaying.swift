extension BCResponse {
    /// t=115 `LiveGamePlaying`: a live-game is being played, with the gifts viewers can send into it.
    ///
    /// App model only; no capture.
    public struct LiveGamePlaying: BCPayload {
        /// `live_game_id`: the live-game.
        @ForcibleString public var liveGameID: String
        /// `viewer_self_start_icon_url`: the icon of the button a viewer taps to start playing.
        @ForcibleString public var viewerSelfStartIconURL: String
        /// `gifts`: the gifts that act in the game.
        public var gifts: [LiveGameGift]

        public init(liveGameID: String, viewerSelfStartIconURL: String, gifts: [LiveGameGift]) {
            self.liveGameID = liveGameID
            self.viewerSelfStartIconURL = viewerSelfStartIconURL
            self.gifts = gifts
        }

        enum CodingKeys: String, CodingKey {
            case liveGameID = "live_game_id"
            case viewerSelfStartIconURL = "viewer_self_start_icon_url"
            case gifts
        }

        /// One gift of a live-game; named apart from `BCResponse.Gift`, the t=35 gift message.
        public struct LiveGameGift: Hashable, Sendable, Codable {
            /// `id`: the gift's id.
            @ForcibleString public var id: String
            /// `coins`: what the gift costs, in coins.
            @ForcibleInt public var coins: Int
            /// `effect_type`: the gift's effect in the game, a code.
            @ForcibleInt public var effectType: Int
            /// `icon_url`: the gift's icon.
            @ForcibleString public var iconURL: String

            public init(id: String, coins: Int, effectType: Int, iconURL: String) {
                self.id = id
                self.coins = coins
                self.effectType = effectType
                self.iconURL = iconURL
            }

            enum CodingKeys: String, CodingKey {
                case id
                case coins
                case effectType = "effect_type"
                case iconURL = "icon_url"
            }
        }
    }
}
