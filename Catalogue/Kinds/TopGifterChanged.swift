import BCKindsGenerator

extension Catalogue {
    static let topGifterChanged = Kind(
        37, "topGifterChanged", "top gifter changed", app: "GiftRankingTopUserUpdated", .appModel, Struct(
        "TopGifterChanged",
        doc: """
            t=37 `GiftRankingTopUserUpdated`: the live's top gifter changed.

            Known from the 2022 app's model only. It carries no display name (`ac`), so it has plain fields rather
            than a `User`.
            """,
        [
            .required("u", "userID", .string, "the new top gifter's user id."),
            .required("iurl", "profileImageURL", .string, "the top gifter's profile image URL (often `\"\"`)."),
            .required("burl", "badgeImageURL", .string, "the top gifter's badge image URL (often `\"\"`)."),
        ]))
}
