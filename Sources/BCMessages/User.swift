extension BCResponse {
    /// The user block that most user-attributed kinds carry, flattened into the message: `u`, `ac`, `iurl`,
    /// `burl`. One type for every kind, so code that shows "who did it" works for all of them.
    public struct User: Hashable, Sendable, Codable {
        /// `u`: the user's id. A string on the wire, but a number is accepted and kept digit for digit.
        @ForcibleString public var id: String
        /// `ac`: the display name.
        @ForcibleString public var name: String
        /// `iurl`: the profile image URL (often `""`); absent from some kinds.
        @OptionalForcibleString public var profileImageURL: String?
        /// `burl`: the badge image URL (often `""`); absent from some kinds.
        @OptionalForcibleString public var badgeImageURL: String?

        public init(id: String, name: String, profileImageURL: String? = nil, badgeImageURL: String? = nil) {
            self.id = id
            self.name = name
            self.profileImageURL = profileImageURL
            self.badgeImageURL = badgeImageURL
        }

        enum CodingKeys: String, CodingKey {
            case id = "u"
            case name = "ac"
            case profileImageURL = "iurl"
            case badgeImageURL = "burl"
        }
    }
}
