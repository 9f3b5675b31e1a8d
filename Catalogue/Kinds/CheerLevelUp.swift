import BCKindsGenerator

extension Catalogue {
    static let cheerLevelUp = Kind(
        116, "cheerLevelUp", "cheer (yell) level-up", app: "CheerLevelUpCommentReceived", .appModel, Struct(
        "CheerLevelUp",
        doc: """
            t=116 `CheerLevelUpCommentReceived`: a viewer's cheer (yell) level went up, shown as a comment.

            From the 2022 app's model; no capture seen. The model has no `burl`. `is_yell_rank_up` is declared a JSON
            boolean but may well come as 0/1; both decode.
            """,
        [
            .user("Who levelled up: `u`, `ac`, `iurl` (and `burl` if ever sent)."),
            .required("cm", "text", .string, "the level-up comment text."),
            .required("speech", "speech", .string, "the text-to-speech line."),
            .required("is_yell_rank_up", "isYellRankUp", .bool, "the cheer rank went up too, not only the level."),
            .required("yell_bonus_description", "yellBonusDescription", .string,
                "what the new level earns the viewer."),
            .required("yell_level", "yellLevel", .int, "the viewer's new cheer level."),
            .required("yell_lp_url", "yellLPURL", .string, "a landing page about cheering."),
            .required("yell_rank", "yellRank", .openEnum("YellRank"), "the viewer's cheer rank after the level-up."),
        ]))
}
