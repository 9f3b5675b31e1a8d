extension BCResponse {
    /// t=111 `MutualGiftAchieved`: a streamer and a viewer reached a mutual-gift goal together.
    ///
    /// Known from the 2022 app's model only. Also the element of `MutualGiftRewards` (t=112).
    public struct MutualGiftAchieved: BCPayload {
        /// `achieved_at`: when the goal was reached, unix seconds.
        @ForcibleInt public var achievedAt: Int
        /// `event_id`: the mutual-gift event.
        @ForcibleInt public var eventID: Int
        /// `streamer`: the streamer of the pair.
        public var streamer: Participant
        /// `viewer`: the viewer of the pair.
        public var viewer: Participant

        public init(achievedAt: Int, eventID: Int, streamer: Participant, viewer: Participant) {
            self.achievedAt = achievedAt
            self.eventID = eventID
            self.streamer = streamer
            self.viewer = viewer
        }

        enum CodingKeys: String, CodingKey {
            case achievedAt = "achieved_at"
            case eventID = "event_id"
            case streamer
            case viewer
        }

        /// One side of the pair.
        public struct Participant: Hashable, Sendable, Codable {
            /// `user_id`: the user's id.
            @ForcibleString public var userID: String
            /// `profile_image_url`: the user's profile image.
            @ForcibleString public var profileImageURL: String

            public init(userID: String, profileImageURL: String) {
                self.userID = userID
                self.profileImageURL = profileImageURL
            }

            enum CodingKeys: String, CodingKey {
                case userID = "user_id"
                case profileImageURL = "profile_image_url"
            }
        }
    }
}
