import BCKindsGenerator

extension Catalogue {
    static let liveChanged = Kind(7, "liveChanged", "live settings changed", app: "LiveChanged", .captured, Struct(
        "LiveChanged",
        doc: """
            t=7 `LiveChanged`: the live's settings changed (the game played, collab, orientation, stickers).

            Captured. Every key is optional: a capture without `app` exists, and the app's model has more keys than
            any capture. Wire quirks: `collab_enabled` and `sticker_enabled` come as `"1"`/`"0"` strings,
            `collab_has_vacancy` as a 0/1 number, `orientation_v2` as a numeric string.
            """,
        [
            .optional("app", "app", .object("App"), "the game (app) now streamed, when it changed."),
            .optional("collab_enabled", "isCollabEnabled", .bool, "viewers may ask to collab."),
            .optional("collab_has_vacancy", "collabHasVacancy", .bool, "a collab seat is free."),
            .optional("orientation_v2", "orientation", .string,
                "the screen orientation code (`\"6\"` in the capture); values not documented."),
            .optional("created_at", "createdAt", .int,
                "when the change happened, unix seconds; seen on the wire only."),
            .optional("sticker_enabled", "isStickerEnabled", .bool,
                "viewers may send stickers; seen on the wire only."),
        ],
        nested: [
            Struct(
                "App",
                doc: """
                    The streamed game (the app's `App.AppParams`). The app's model has more keys than these, so every
                    key is optional and unknown ones are normal.
                    """,
                [
                    .optional("app_id", "appID", .string, "the game's id in the service's catalogue."),
                    .optional("title", "title", .string, "the game's title."),
                    .optional("short_title", "shortTitle", .string, "the game's short title."),
                    .optional("icon_url", "iconURL", .string, "the game's icon."),
                    .optional("app_user_id_label", "appUserIDLabel", .string,
                        "what the game calls a player's id (\"ユーザーID\", \"フレンドコード\"...)."),
                    .optional("is_app_user_id_hidden", "isAppUserIDHidden", .bool,
                        "the streamer hides their in-game user id."),
                    .optional("is_listing", "isListing", .bool, "the game is listed in the catalogue."),
                    .optional("is_category", "isCategory", .bool,
                        "the entry is a category (e.g. \"chat\"), not a game."),
                    .optional("is_pr", "isPR", .bool, "the game is a promoted (PR) title."),
                    .optional("push_enabled", "isPushEnabled", .bool,
                        "followers get a push notification for lives of this game."),
                ]),
        ]))
}
