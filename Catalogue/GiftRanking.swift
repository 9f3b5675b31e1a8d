import BCKindsGenerator

extension Catalogue {
    static let giftRanking = Struct(
        "GiftRanking", file: "GiftRanking.generated.swift",
        doc: """
            One event ranking a gift moved, in a gift's `rankings` (t=35), in the service's short keys.

            Known from the 2022 app's model only; no capture has carried it. Every key is optional so that one
            incomplete ranking never costs the gift it came with. The event ranking message (t=89,
            `GiftRankingChanged`) reports the same `ei`, `iae`, `nt`, `r`, `rt`, `rp` on its own.
            """,
        [
            .optional("ei", "eventID", .int, "the event id."),
            .optional("et", "eventTitle", .string, "the event title."),
            .optional("eiu", "eventIconURL", .string, "the event icon URL."),
            .optional("iae", "isAppEvent", .bool, "the event is an app (game) event."),
            .optional("is_focus", "isFocus", .bool, "the event is the one in focus."),
            .optional("nt", "nanoTime", .int,
                "when the ranking was computed, a nanosecond timestamp (orders updates)."),
            .optional("r", "rank", .int, "the rank."),
            .optional("rt", "rankText", .string, "the rank as text to show (\"12位\")."),
            .optional("re", "showsRankUpAnimation", .bool, "play the rank-up animation."),
            .optional("rp", "rankingPoint", .int, "the ranking point."),
            .optional("tp", "totalPoint", .int, "the total point."),
            .optional("car", "casterRankAfter", .int, "the caster's (streamer's) rank after this gift."),
            .optional("cbr", "casterRankBefore", .int, "the caster's rank before this gift."),
            .optional("cg", "casterGrade", .string, "the caster's grade."),
            .optional("sar", "senderRankAfter", .int, "the sender's rank after this gift."),
            .optional("sbr", "senderRankBefore", .int, "the sender's rank before this gift."),
            .optional("sg", "senderGrade", .string, "the sender's grade."),
            .optional("ibu", "isBannedUser", .bool, "the user is banned from the ranking."),
            .optional("rap", "rewardAchievedPoint", .int, "the point at which the reward was achieved."),
            .optional("rnp", "rewardNeedPoint", .int, "the point needed for the next reward."),
            .optional("riu", "rewardIconURL", .string, "the reward icon URL."),
            .optional("ari", "achievedRewardIconURLs", .strings, "the icons of rewards already achieved."),
            .optional("biiu", "bannerIconImageURL", .string, "the banner icon image URL."),
            .optional("bilu", "bannerLinkURL", .string, "where the banner links to."),
            .optional("nrc", "nearbyCasters", .objects("NearbyUser"), "casters ranked near this caster."),
            .optional("nrs", "nearbySenders", .objects("NearbyUser"), "senders ranked near this sender."),
        ],
        nested: [
            Struct(
                "NearbyUser",
                doc: """
                    A user ranked near the gift's caster or sender (`nrc`, `nrs`), in short keys.
                    """,
                [
                    .optional("u", "userID", .string, "the user's id."),
                    .optional("n", "name", .string, "the display name."),
                    .optional("iu", "iconURL", .string, "the profile icon URL."),
                    .optional("biu", "badgeImageURL", .string, "the badge image URL."),
                    .optional("liu", "labelImageURL", .string, "the label image URL."),
                    .optional("r", "rank", .int, "the user's rank."),
                    .optional("gp", "giftPoint", .int, "the user's gift point."),
                ]),
        ])
}
