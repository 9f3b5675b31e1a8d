extension BCResponse {
    /// t=38 `GiftRankingTopThreeUsers`: the live's top three gifters, sent again whenever they change.
    ///
    /// Captured: `{"users":[{"u","ac","burl","iurl"}, ...],"t":38}`, up to three users, best first.
    public struct TopGifters: BCPayload {
        /// `users`: the top gifters, best first.
        public var users: [RankingUser]

        public init(users: [RankingUser]) {
            self.users = users
        }

        enum CodingKeys: String, CodingKey {
            case users
        }

        /// One top gifter. The app's `RankingUser` reads `u`, `iurl`, `burl`; captures add `ac`, so the name is
        /// optional and the fields are plain rather than a `User`.
        public struct RankingUser: Hashable, Sendable, Codable {
            /// `u`: the user's id.
            @ForcibleString public var userID: String
            /// `ac`: the display name; in captures, not in the app's model.
            @OptionalForcibleString public var name: String?
            /// `iurl`: the profile image URL (often `""`).
            @ForcibleString public var profileImageURL: String
            /// `burl`: the badge image URL (often `""`).
            @ForcibleString public var badgeImageURL: String

            public init(userID: String, name: String? = nil, profileImageURL: String, badgeImageURL: String) {
                self.userID = userID
                self.name = name
                self.profileImageURL = profileImageURL
                self.badgeImageURL = badgeImageURL
            }

            enum CodingKeys: String, CodingKey {
                case userID = "u"
                case name = "ac"
                case profileImageURL = "iurl"
                case badgeImageURL = "burl"
            }
        }
    }
}
