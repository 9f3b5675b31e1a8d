import BCKindsGenerator

extension Catalogue {
    static let mutualGiftAchieved = Kind(
        111, "mutualGiftAchieved", "mutual-gift goal achieved", app: "MutualGiftAchieved", .appModel, Struct(
        "MutualGiftAchieved",
        doc: """
            t=111 `MutualGiftAchieved`: a streamer and a viewer reached a mutual-gift goal together.

            Known from the 2022 app's model only. Also the element of `MutualGiftRewards` (t=112).
            """,
        [
            .required("achieved_at", "achievedAt", .int, "when the goal was reached, unix seconds."),
            .required("event_id", "eventID", .int, "the mutual-gift event."),
            .required("streamer", "streamer", .object("Participant"), "the streamer of the pair."),
            .required("viewer", "viewer", .object("Participant"), "the viewer of the pair."),
        ],
        nested: [
            Struct(
                "Participant",
                doc: """
                    One side of the pair.
                    """,
                [
                    .required("user_id", "userID", .string, "the user's id."),
                    .required("profile_image_url", "profileImageURL", .string, "the user's profile image."),
                ]),
        ]))
}
