extension BCResponse {
    /// t=75 `CollabInviteCanceledByViewer`: the invited viewer declined or withdrew from a collab (co-stream) invite.
    ///
    /// From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
    public struct CollabInviteCanceledByViewer: BCPayload, UserAttributed {
        /// The viewer who canceled: `u`, `ac`, `iurl`, `burl`.
        public var user: User
        /// `collab_type`: the kind of collab the invite was for.
        public var collabType: CollabType

        public init(user: User, collabType: CollabType) {
            self.user = user
            self.collabType = collabType
        }

        enum CodingKeys: String, CodingKey {
            case collabType = "collab_type"
        }

        public init(from decoder: any Decoder) throws {
            user = try User(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            collabType = try container.decode(CollabType.self, forKey: .collabType)
        }

        public func encode(to encoder: any Encoder) throws {
            try user.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(collabType, forKey: .collabType)
        }
    }
}
