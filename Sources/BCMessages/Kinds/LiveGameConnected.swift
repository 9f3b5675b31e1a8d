extension BCResponse {
    /// t=92 `LiveGameConnected`: a live-game (a game played together on the live) started or was joined.
    ///
    /// App model only; no capture. The requesting user's keys are not the shared user block (`u`, `ac`, ...),
    /// so they stay plain fields.
    public struct LiveGameConnected: BCPayload {
        /// `live_game_id`: the live-game.
        @ForcibleString public var liveGameID: String
        /// `play_id`: this play (session) of the live-game.
        @ForcibleString public var playID: String
        /// `title`: the live-game's title.
        @ForcibleString public var title: String
        /// `request_user_id`: the user who requested the game.
        @ForcibleString public var requestUserID: String
        /// `request_user_name`: the requesting user's display name.
        @ForcibleString public var requestUserName: String
        /// `request_user_image_url`: the requesting user's profile image.
        @ForcibleString public var requestUserImageURL: String
        /// `request_user_badge_url`: the requesting user's badge image (often `""`).
        @ForcibleString public var requestUserBadgeURL: String
        /// `user_ids`: the users connected to the game (each a string or a number).
        @ForcibleArray public var userIDs: [String]

        public init(
            liveGameID: String, playID: String, title: String, requestUserID: String, requestUserName: String,
            requestUserImageURL: String, requestUserBadgeURL: String, userIDs: [String]
        ) {
            self.liveGameID = liveGameID
            self.playID = playID
            self.title = title
            self.requestUserID = requestUserID
            self.requestUserName = requestUserName
            self.requestUserImageURL = requestUserImageURL
            self.requestUserBadgeURL = requestUserBadgeURL
            self.userIDs = userIDs
        }

        enum CodingKeys: String, CodingKey {
            case liveGameID = "live_game_id"
            case playID = "play_id"
            case title
            case requestUserID = "request_user_id"
            case requestUserName = "request_user_name"
            case requestUserImageURL = "request_user_image_url"
            case requestUserBadgeURL = "request_user_badge_url"
            case userIDs = "user_ids"
        }
    }
}
