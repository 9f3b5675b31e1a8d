extension BCResponse {
    /// t=73 `CollabInvited`: the streamer invited a viewer to join a collab (co-stream).
    ///
    /// From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
    public struct CollabInvited: BCPayload, UserAttributed {
        /// The streamer who invited: `u`, `ac`, `iurl`, `burl`.
        public var user: User
        /// `collab_type`: a call or a co-stream.
        public var collabType: CollabType
        /// `invite_user_id`: the id of the invited viewer.
        @ForcibleString public var invitedUserID: String

        public init(user: User, collabType: CollabType, invitedUserID: String) {
            self.user = user
            self.collabType = collabType
            self.invitedUserID = invitedUserID
        }

        enum CodingKeys: String, CodingKey {
            case collabType = "collab_type"
            case invitedUserID = "invite_user_id"
        }

        public init(from decoder: any Decoder) throws {
            user = try User(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            collabType = try container.decode(CollabType.self, forKey: .collabType)
            _invitedUserID = try container.decode(ForcibleString.self, forKey: .invitedUserID)
        }

        public func encode(to encoder: any Encoder) throws {
            try user.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(collabType, forKey: .collabType)
            try container.encode(_invitedUserID, forKey: .invitedUserID)
        }
    }
}
