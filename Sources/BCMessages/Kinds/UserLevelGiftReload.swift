extension BCResponse {
    /// t=72 `ReloadUserLevelGift`: a user's level gifts changed; the client should reload them.
    ///
    /// From the 2022 app's model; no capture seen, so the id may come as a number or a string.
    public struct UserLevelGiftReload: BCPayload {
        /// `u`: the id of the user whose level gifts to reload.
        @ForcibleString public var userID: String

        public init(userID: String) {
            self.userID = userID
        }

        enum CodingKeys: String, CodingKey {
            case userID = "u"
        }
    }
}
