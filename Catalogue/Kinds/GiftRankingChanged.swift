import BCKindsGenerator

extension Catalogue {
    static let giftRankingChanged = Kind(
        89, "giftRankingChanged", "event ranking changed", app: "GiftRankingChanged", .appModel, Struct(
        "GiftRankingChanged",
        doc: """
            t=89 `GiftRankingChanged`: the live's place in an event ranking changed.

            Known from the 2022 app's model only. The same short keys appear in a gift's `rankings` (`GiftRanking`).
            """,
        [
            .required("ei", "eventID", .int, "the event id."),
            .required("iae", "isAppEvent", .bool,
                "the event is an app (game) event; declared a JSON bool, 0/1 accepted too."),
            .required("nt", "nanoTime", .int,
                "when the ranking was computed, a nanosecond timestamp (orders updates)."),
            .required("r", "rank", .int, "the rank."),
            .required("rt", "rankText", .string, "the rank as text to show."),
            .required("rp", "rankingPoint", .int, "the ranking point."),
        ]))
}
