extension BCResponse {
    /// t=88 `CollabEndNotFollowUser`: a collab ended with a partner the user does not follow yet.
    ///
    /// App model only; no capture; meaning guessed from the event name (likely so the app can offer to follow
    /// the partner). Carries the user block without `burl`.
    public struct CollabEndedNotFollowing: BCPayload, UserAttributed {
        /// The collab partner: `u`, `ac`, `iurl`.
        public var user: User

        public init(user: User) {
            self.user = user
        }

        public init(from decoder: any Decoder) throws {
            user = try User(from: decoder)
        }

        public func encode(to encoder: any Encoder) throws {
            try user.encode(to: encoder)
        }
    }
}
