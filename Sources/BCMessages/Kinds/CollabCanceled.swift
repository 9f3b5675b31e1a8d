extension BCResponse {
    /// t=12 `CollabCanceled`: a collab (co-stream) request was canceled.
    ///
    /// From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
    public struct CollabCanceled: BCPayload, UserAttributed {
        /// Who canceled: `u`, `ac`, `iurl`, `burl`.
        public var user: User
        /// `canceled_user_id`: the id of the user whose request was canceled.
        @ForcibleString public var canceledUserID: String

        public init(user: User, canceledUserID: String) {
            self.user = user
            self.canceledUserID = canceledUserID
        }

        enum CodingKeys: String, CodingKey {
            case canceledUserID = "canceled_user_id"
        }

        public init(from decoder: any Decoder) throws {
            user = try User(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _canceledUserID = try container.decode(ForcibleString.self, forKey: .canceledUserID)
        }

        public func encode(to encoder: any Encoder) throws {
            try user.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(_canceledUserID, forKey: .canceledUserID)
        }
    }
}
