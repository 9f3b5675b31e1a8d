extension BCResponse {
    /// t=93 `LiveGameDisconnected`: users left (were disconnected from) a live-game.
    ///
    /// App model only; no capture. Whether `user_ids` lists those who left or those who remain is not known.
    public struct LiveGameDisconnected: BCPayload {
        /// `live_game_id`: the live-game.
        @ForcibleString public var liveGameID: String
        /// `user_ids`: the users concerned (each a string or a number).
        @ForcibleArray public var userIDs: [String]

        public init(liveGameID: String, userIDs: [String]) {
            self.liveGameID = liveGameID
            self.userIDs = userIDs
        }

        enum CodingKeys: String, CodingKey {
            case liveGameID = "live_game_id"
            case userIDs = "user_ids"
        }
    }
}
