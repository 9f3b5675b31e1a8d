extension BCResponse {
    /// t=71 `UpdateUserLevel`: a user gained experience, and possibly a level, with what the level unlocks.
    ///
    /// From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
    public struct UserLevelUp: BCPayload {
        /// `u`: the id of the user whose level changed.
        @ForcibleString public var userID: String
        /// `add_ex_point`: the experience points just gained.
        @ForcibleInt public var addedExperiencePoints: Int
        /// `ex_point`: the user's experience points now.
        @ForcibleInt public var experiencePoints: Int
        /// `level`: the user's level now.
        @ForcibleInt public var level: Int
        /// `next_level_ex_point`: the experience points the next level needs.
        @ForcibleInt public var nextLevelExperiencePoints: Int
        /// `level_image_url`: the image of the level's badge.
        @ForcibleString public var levelImageURL: String
        /// `level_color_code`: the level's colour, a colour code such as `#FF8A00`.
        @ForcibleString public var levelColorCode: String
        /// `level_border_color_code`: the colour of the level badge's border.
        @ForcibleString public var levelBorderColorCode: String
        /// `level_gauge_color_codes`: the colours of the experience gauge, in order.
        @ForcibleArray public var levelGaugeColorCodes: [String]
        /// `user_level_gift_panel_text`: the line shown on the gift panel about the user's level.
        @ForcibleString public var userLevelGiftPanelText: String
        /// `unlocks`: what this level and the next ones unlock.
        public var unlocks: [Unlock]

        public init(
            userID: String, addedExperiencePoints: Int, experiencePoints: Int, level: Int,
            nextLevelExperiencePoints: Int, levelImageURL: String, levelColorCode: String,
            levelBorderColorCode: String, levelGaugeColorCodes: [String], userLevelGiftPanelText: String,
            unlocks: [Unlock]
        ) {
            self.userID = userID
            self.addedExperiencePoints = addedExperiencePoints
            self.experiencePoints = experiencePoints
            self.level = level
            self.nextLevelExperiencePoints = nextLevelExperiencePoints
            self.levelImageURL = levelImageURL
            self.levelColorCode = levelColorCode
            self.levelBorderColorCode = levelBorderColorCode
            self.levelGaugeColorCodes = levelGaugeColorCodes
            self.userLevelGiftPanelText = userLevelGiftPanelText
            self.unlocks = unlocks
        }

        enum CodingKeys: String, CodingKey {
            case userID = "u"
            case addedExperiencePoints = "add_ex_point"
            case experiencePoints = "ex_point"
            case level
            case nextLevelExperiencePoints = "next_level_ex_point"
            case levelImageURL = "level_image_url"
            case levelColorCode = "level_color_code"
            case levelBorderColorCode = "level_border_color_code"
            case levelGaugeColorCodes = "level_gauge_color_codes"
            case userLevelGiftPanelText = "user_level_gift_panel_text"
            case unlocks
        }

        /// An item a level unlocks, and the one after it.
        public struct Unlock: Hashable, Sendable, Codable {
            /// `item_image_url`: the unlocked item's image.
            @ForcibleString public var itemImageURL: String
            /// `item_name`: the unlocked item's name.
            @ForcibleString public var itemName: String
            /// `level`: the level that unlocks the item.
            @ForcibleInt public var level: Int
            /// `next_item_name`: the name of the next item to unlock.
            @ForcibleString public var nextItemName: String
            /// `next_level`: the level that unlocks the next item.
            @ForcibleInt public var nextLevel: Int

            public init(itemImageURL: String, itemName: String, level: Int, nextItemName: String, nextLevel: Int) {
                self.itemImageURL = itemImageURL
                self.itemName = itemName
                self.level = level
                self.nextItemName = nextItemName
                self.nextLevel = nextLevel
            }

            enum CodingKeys: String, CodingKey {
                case itemImageURL = "item_image_url"
                case itemName = "item_name"
                case level
                case nextItemName = "next_item_name"
                case nextLevel = "next_level"
            }
        }
    }
}
