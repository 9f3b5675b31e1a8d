import BCKindsGenerator

extension Catalogue {
    static let topGifters = Kind(38, "topGifters", "top-3 gifters", app: "GiftRankingTopThreeUsers", .captured, Struct(
        "TopGifters",
        doc: """
            t=38 `GiftRankingTopThreeUsers`: the live's top three gifters, sent again whenever they change.

            Captured: `{"users":[{"u","ac","burl","iurl"}, ...],"t":38}`, up to three users, best first.
            """,
        [
            .required("users", "users", .objects("RankingUser"), "the top gifters, best first."),
        ],
        nested: [
            Struct(
                "RankingUser",
                doc: """
                    One top gifter. The app's `RankingUser` reads `u`, `iurl`, `burl`; captures add `ac`, so the name is
                    optional and the fields are plain rather than a `User`.
                    """,
                [
                    .required("u", "userID", .string, "the user's id."),
                    .optional("ac", "name", .string, "the display name; in captures, not in the app's model."),
                    .required("iurl", "profileImageURL", .string, "the profile image URL (often `\"\"`)."),
                    .required("burl", "badgeImageURL", .string, "the badge image URL (often `\"\"`)."),
                ]),
        ]))
}
