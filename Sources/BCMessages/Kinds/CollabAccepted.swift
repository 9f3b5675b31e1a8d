extension BCResponse {
    /// t=11 `CollabAccepted`: the streamer accepted a collab (co-stream) request.
    ///
    /// From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
    public struct CollabAccepted: BCPayload {
        /// `u`: the id of the user whose request was accepted.
        @ForcibleString public var userID: String

        public init(userID: String) {
            self.userID = userID
        }

        enum CodingKeys: String, CodingKey {
            case userID = "u"
        }
    }
}
