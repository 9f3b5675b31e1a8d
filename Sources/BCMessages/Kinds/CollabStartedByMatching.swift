extension BCResponse {
    /// t=87 `CollabStartByMatching`: a collab started through matching.
    ///
    /// App model only; no capture. Carries the user block without `burl`.
    public struct CollabStartedByMatching: BCPayload, UserAttributed {
        /// The user the collab started with: `u`, `ac`, `iurl`.
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
