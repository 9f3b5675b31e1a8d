import BCKindsGenerator

extension Catalogue {
    static let emomoRunGift = Kind(
        66, "emomoRunGift", "emomo-run game gift", app: "EmomoRunGiftSent", .appModel, Struct(
        "EmomoRunGift",
        doc: """
            t=66 `EmomoRunGiftSent`: a viewer sent a gift that acts in the emomo-run mini-game.

            From the 2022 app's model; no capture seen, so any scalar may come as a number or a string. The user
            block has no `burl` in the app's model.
            """,
        [
            .user("Who sent it: `u`, `ac`, `iurl`."),
            .required("consumed_score", "consumedScore", .int, "the score the gift used up."),
            .required("game_gift_command", "gameGiftCommand", .string, "what the gift makes the game do."),
            .required("game_gift_id", "gameGiftID", .int, "the game gift's id (an int in the app's model)."),
            .required("game_gift_type", "gameGiftType", .int, "the game gift's type (values not known)."),
            .required("gift_event_id", "giftEventID", .int,
                "the gift event the game belongs to (an int in the app's model)."),
        ]))
}
