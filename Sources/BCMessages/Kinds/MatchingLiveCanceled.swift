extension BCResponse {
    /// t=83 `MatchingLiveCanceled`: a live matching was canceled.
    ///
    /// App model only; no capture.
    public struct MatchingLiveCanceled: BCPayload {
        /// `user_id`: the user whose matching was canceled.
        @ForcibleString public var userID: String

        public init(userID: String) {
            self.userID = userID
        }

        enum CodingKeys: String, CodingKey {
            case userID = "user_id"
        }
    }
}
