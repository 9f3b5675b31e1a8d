extension BCResponse {
    /// t=74 `CollabInviteCanceledByStreamer`: the streamer withdrew a collab (co-stream) invite.
    ///
    /// From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
    public struct CollabInviteCanceledByStreamer: BCPayload, UserAttributed {
        /// The streamer who withdrew it: `u`, `ac`, `iurl`, `burl`.
        public var user: User
        /// `collab_type`: the kind of collab the invite was for.
        public var collabType: CollabType
        /// `invited_user_id`: the id of the viewer whose invite was withdrawn (note `invited_`, where t=73 has
        /// `invite_user_id`).
        @ForcibleString public var invitedUserID: String

        public init(user: User, collabType: CollabType, invitedUserID: String) {
            self.user = user
            self.collabType = collabType
            self.invitedUserID = invitedUserID
        }

        enum CodingKeys: String, CodingKey {
            case collabType = "collab_type"
            case invitedUserID = "invited_user_id"
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
