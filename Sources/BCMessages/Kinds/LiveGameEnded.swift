extension BCResponse {
    /// t=94 `LiveGameEnded`: a live-game ended.
    ///
    /// App model only; no capture.
    public struct LiveGameEnded: BCPayload {
        /// `live_game_id`: the live-game that ended.
        @ForcibleString public var liveGameID: String

        public init(liveGameID: String) {
            self.liveGameID = liveGameID
        }

        enum CodingKeys: String, CodingKey {
            case liveGameID = "live_game_id"
        }
    }
}
