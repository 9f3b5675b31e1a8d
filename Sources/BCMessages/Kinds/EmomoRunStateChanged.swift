extension BCResponse {
    /// t=65 `EmomoRunStateChanged`: the emomo-run mini-game started or stopped.
    ///
    /// From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
    public struct EmomoRunStateChanged: BCPayload {
        /// `gift_event_id`: the gift event the game belongs to (an int in the app's model).
        @ForcibleInt public var giftEventID: Int
        /// `is_running`: the game is running now.
        @ForcibleBool public var isRunning: Bool

        public init(giftEventID: Int, isRunning: Bool) {
            self.giftEventID = giftEventID
            self.isRunning = isRunning
        }

        enum CodingKeys: String, CodingKey {
            case giftEventID = "gift_event_id"
            case isRunning = "is_running"
        }
    }
}
