extension BCResponse {
    /// t=7 `LiveChanged`: the live's settings changed (the game played, collab, orientation, stickers).
    ///
    /// Captured. Every key is optional: a capture without `app` exists, and the app's model has more keys than
    /// any capture. Wire quirks: `collab_enabled` and `sticker_enabled` come as `"1"`/`"0"` strings,
    /// `collab_has_vacancy` as a 0/1 number, `orientation_v2` as a numeric string.
    public struct LiveChanged: BCPayload {
        /// `app`: the game (app) now streamed, when it changed.
        public var app: App?
        /// `collab_enabled`: viewers may ask to collab.
        @OptionalForcibleBool public var isCollabEnabled: Bool?
        /// `collab_has_vacancy`: a collab seat is free.
        @OptionalForcibleBool public var collabHasVacancy: Bool?
        /// `orientation_v2`: the screen orientation code (`"6"` in the capture); values not documented.
        @OptionalForcibleString public var orientation: String?
        /// `created_at`: when the change happened, unix seconds; seen on the wire only.
        @OptionalForcibleInt public var createdAt: Int?
        /// `sticker_enabled`: viewers may send stickers; seen on the wire only.
        @OptionalForcibleBool public var isStickerEnabled: Bool?

        public init(
            app: App? = nil, isCollabEnabled: Bool? = nil, collabHasVacancy: Bool? = nil, orientation: String? = nil,
            createdAt: Int? = nil, isStickerEnabled: Bool? = nil
        ) {
            self.app = app
            self.isCollabEnabled = isCollabEnabled
            self.collabHasVacancy = collabHasVacancy
            self.orientation = orientation
            self.createdAt = createdAt
            self.isStickerEnabled = isStickerEnabled
        }

        enum CodingKeys: String, CodingKey {
            case app
            case isCollabEnabled = "collab_enabled"
            case collabHasVacancy = "collab_has_vacancy"
            case orientation = "orientation_v2"
            case createdAt = "created_at"
            case isStickerEnabled = "sticker_enabled"
        }

        /// The streamed game (the app's `App.AppParams`). The app's model has more keys than these, so every
        /// key is optional and unknown ones are normal.
        public struct App: Hashable, Sendable, Codable {
            /// `app_id`: the game's id in the service's catalogue.
            @OptionalForcibleString public var appID: String?
            /// `title`: the game's title.
            @OptionalForcibleString public var title: String?
            /// `short_title`: the game's short title.
            @OptionalForcibleString public var shortTitle: String?
            /// `icon_url`: the game's icon.
            @OptionalForcibleString public var iconURL: String?
            /// `app_user_id_label`: what the game calls a player's id ("ユーザーID", "フレンドコード"...).
            @OptionalForcibleString public var appUserIDLabel: String?
            /// `is_app_user_id_hidden`: the streamer hides their in-game user id.
            @OptionalForcibleBool public var isAppUserIDHidden: Bool?
            /// `is_listing`: the game is listed in the catalogue.
            @OptionalForcibleBool public var isListing: Bool?
            /// `is_category`: the entry is a category (e.g. "chat"), not a game.
            @OptionalForcibleBool public var isCategory: Bool?
            /// `is_pr`: the game is a promoted (PR) title.
            @OptionalForcibleBool public var isPR: Bool?
            /// `push_enabled`: followers get a push notification for lives of this game.
            @OptionalForcibleBool public var isPushEnabled: Bool?

            public init(
                appID: String? = nil, title: String? = nil, shortTitle: String? = nil, iconURL: String? = nil,
                appUserIDLabel: String? = nil, isAppUserIDHidden: Bool? = nil, isListing: Bool? = nil,
                isCategory: Bool? = nil, isPR: Bool? = nil, isPushEnabled: Bool? = nil
            ) {
                self.appID = appID
                self.title = title
                self.shortTitle = shortTitle
                self.iconURL = iconURL
                self.appUserIDLabel = appUserIDLabel
                self.isAppUserIDHidden = isAppUserIDHidden
                self.isListing = isListing
                self.isCategory = isCategory
                self.isPR = isPR
                self.isPushEnabled = isPushEnabled
            }

            enum CodingKeys: String, CodingKey {
                case appID = "app_id"
                case title
                case shortTitle = "short_title"
                case iconURL = "icon_url"
                case appUserIDLabel = "app_user_id_label"
                case isAppUserIDHidden = "is_app_user_id_hidden"
                case isListing = "is_listing"
                case isCategory = "is_category"
                case isPR = "is_pr"
                case isPushEnabled = "push_enabled"
            }
        }
    }
}
