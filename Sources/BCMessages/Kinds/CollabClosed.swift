extension BCResponse {
    /// t=14 `CollabClosed`: a collab (co-stream) ended.
    ///
    /// From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
    public struct CollabClosed: BCPayload, UserAttributed {
        /// Who closed it: `u`, `ac`, `iurl`, `burl`.
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
