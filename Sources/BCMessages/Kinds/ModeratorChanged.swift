extension BCResponse {
    /// t=51 `ModeratorChange`: the streamer appointed or removed a moderator.
    ///
    /// From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
    public struct ModeratorChanged: BCPayload {
        /// `moderator_user_id`: the id of the user appointed or removed.
        @ForcibleString public var moderatorUserID: String
        /// `is_appoint`: true when the user was appointed, false when removed.
        @ForcibleBool public var isAppointed: Bool

        public init(moderatorUserID: String, isAppointed: Bool) {
            self.moderatorUserID = moderatorUserID
            self.isAppointed = isAppointed
        }

        enum CodingKeys: String, CodingKey {
            case moderatorUserID = "moderator_user_id"
            case isAppointed = "is_appoint"
        }
    }
}
