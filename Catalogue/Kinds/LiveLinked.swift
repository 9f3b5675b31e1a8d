import BCKindsGenerator

extension Catalogue {
    static let liveLinked = Kind(
        26, "liveLinked", "this live linked to another live", app: "LiveLinked", .appModel, Struct(
        "LiveLinked",
        doc: """
            t=26 `LiveLinked`: this live was linked to another live, so viewers can hop between the two.

            From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
            """,
        [
            .required("linked_live", "linkedLive", .object("LinkedLive"),
                "the other live, the one this live is now linked to."),
            .required("live", "live", .object("LinkedLive"), "this live, described the same way."),
        ],
        nested: [
            Struct(
                "LinkedLive",
                doc: """
                    One side of a link: a live and its owner, the app's `LinkedLive`.
                    """,
                [
                    .required("live_id", "liveID", .string, "the live's id."),
                    .required("owner_id", "ownerID", .string, "the streamer's user id."),
                    .required("owner_name", "ownerName", .string, "the streamer's display name."),
                    .required("owner_image_url", "ownerImageURL", .string, "the streamer's profile image URL."),
                    .required("owner_badge_image_url", "ownerBadgeImageURL", .string,
                        "the streamer's badge image URL (probably often `\"\"`, like `burl`)."),
                ]),
        ]))
}
