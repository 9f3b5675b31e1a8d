extension BCResponse {
    /// t=37 `GiftRankingTopUserUpdated`: the live's top gifter changed.
    ///
    /// Known from the 2022 app's model only. It carries no display name (`ac`), so it has plain fields rather
    /// than a `User`.
    public struct TopGifterChanged: BCPayload {
        /// `u`: the new top gifter's user id.
        @ForcibleString public var userID: String
        /// `iurl`: the top gifter's profile image URL (often `""`).
        @ForcibleString public var profileImageURL: String
        /// `burl`: the top gifter's badge image URL (often `""`).
        @ForcibleString public var badgeImageURL: String

        public init(userID: String, profileImageURL: String, badgeImageURL: String) {
            self.userID = userID
            self.profileImageURL = profileImageURL
            self.badgeImageURL = badgeImageURL
        }

        enum CodingKeys: String, CodingKey {
            case userID = "u"
            case profileImageURL = "iurl"
            case badgeImageURL = "burl"
        }
    }
}
