extension BCResponse {
    /// t=106 `ShooterViewerMatched`: a viewer was matched into the shooter mini-game.
    ///
    /// App model only; no capture. Plain fields, not the shared user block: the keys differ (`user_id`, `name`,
    /// `profile_image_url`).
    public struct ShooterViewerMatched: BCPayload {
        /// `name`: the matched viewer's display name.
        @ForcibleString public var name: String
        /// `profile_image_url`: the matched viewer's profile image.
        @ForcibleString public var profileImageURL: String
        /// `user_id`: the matched viewer's user id. The app declares it an int here, unlike every other user id;
        /// it is kept as a String like the others, digit for digit, whichever form the wire uses.
        @ForcibleString public var userID: String

        public init(name: String, profileImageURL: String, userID: String) {
            self.name = name
            self.profileImageURL = profileImageURL
            self.userID = userID
        }

        enum CodingKeys: String, CodingKey {
            case name
            case profileImageURL = "profile_image_url"
            case userID = "user_id"
        }
    }
}
