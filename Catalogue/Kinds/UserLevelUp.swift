import BCKindsGenerator

extension Catalogue {
    static let userLevelUp = Kind(71, "userLevelUp", "user level up", app: "UpdateUserLevel", .appModel, Struct(
        "UserLevelUp",
        doc: """
            t=71 `UpdateUserLevel`: a user gained experience, and possibly a level, with what the level unlocks.

            From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
            """,
        [
            .required("u", "userID", .string, "the id of the user whose level changed."),
            .required("add_ex_point", "addedExperiencePoints", .int, "the experience points just gained."),
            .required("ex_point", "experiencePoints", .int, "the user's experience points now."),
            .required("level", "level", .int, "the user's level now."),
            .required("next_level_ex_point", "nextLevelExperiencePoints", .int,
                "the experience points the next level needs."),
            .required("level_image_url", "levelImageURL", .string, "the image of the level's badge."),
            .required("level_color_code", "levelColorCode", .string,
                "the level's colour, a colour code such as `#FF8A00`."),
            .required("level_border_color_code", "levelBorderColorCode", .string,
                "the colour of the level badge's border."),
            .required("level_gauge_color_codes", "levelGaugeColorCodes", .strings,
                "the colours of the experience gauge, in order."),
            .required("user_level_gift_panel_text", "userLevelGiftPanelText", .string,
                "the line shown on the gift panel about the user's level."),
            .required("unlocks", "unlocks", .objects("Unlock"), "what this level and the next ones unlock."),
        ],
        nested: [
            Struct(
                "Unlock",
                doc: """
                    An item a level unlocks, and the one after it.
                    """,
                [
                    .required("item_image_url", "itemImageURL", .string, "the unlocked item's image."),
                    .required("item_name", "itemName", .string, "the unlocked item's name."),
                    .required("level", "level", .int, "the level that unlocks the item."),
                    .required("next_item_name", "nextItemName", .string, "the name of the next item to unlock."),
                    .required("next_level", "nextLevel", .int, "the level that unlocks the next item."),
                ]),
        ]))
}
