extension BCResponse {
    /// t=109 `EmomoQuestGameStateChanged`: the emomo quest mini-game started or stopped.
    ///
    /// App model only; no capture.
    public struct EmomoQuestStateChanged: BCPayload {
        /// `gift_event_id`: the gift event the quest belongs to.
        @ForcibleInt public var giftEventID: Int
        /// `is_questing`: a quest is running.
        @ForcibleBool public var isQuesting: Bool

        public init(giftEventID: Int, isQuesting: Bool) {
            self.giftEventID = giftEventID
            self.isQuesting = isQuesting
        }

        enum CodingKeys: String, CodingKey {
            case giftEventID = "gift_event_id"
            case isQuesting = "is_questing"
        }
    }
}
