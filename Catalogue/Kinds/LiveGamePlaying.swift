import BCKindsGenerator

extension Catalogue {
    static let liveGamePlaying = Kind(
        115, "liveGamePlaying", "live-game playing, with its gifts", app: "LiveGamePlaying", .appModel, Struct(
        "LiveGamePlaying",
        doc: """
            t=115 `LiveGamePlaying`: a live-game is being played, with the gifts viewers can send into it.

            App model only; no capture.
            """,
        [
            .required("live_game_id", "liveGameID", .string, "the live-game."),
            .required("viewer_self_start_icon_url", "viewerSelfStartIconURL", .string,
                "the icon of the button a viewer taps to start playing."),
            .required("gifts", "gifts", .objects("LiveGameGift"), "the gifts that act in the game."),
        ],
        nested: [
            Struct(
                "LiveGameGift",
                doc: """
                    One gift of a live-game; named apart from `BCResponse.Gift`, the t=35 gift message.
                    """,
                [
                    .required("id", "id", .string, "the gift's id."),
                    .required("coins", "coins", .int, "what the gift costs, in coins."),
                    .required("effect_type", "effectType", .int, "the gift's effect in the game, a code."),
                    .required("icon_url", "iconURL", .string, "the gift's icon."),
                ]),
        ]))
}
