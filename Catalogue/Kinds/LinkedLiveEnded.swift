import BCKindsGenerator

extension Catalogue {
    static let linkedLiveEnded = Kind(
        28, "linkedLiveEnded", "linked live ended", app: "LinkedLiveEnded", .appModel, Struct(
        "LinkedLiveEnded",
        doc: """
            t=28 `LinkedLiveEnded`: the live this live was linked to has ended.

            From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
            """,
        [
            .required("linked_live", "linkedLive", .object("LinkedLive"), "the live that ended."),
        ],
        nested: [
            Struct(
                "LinkedLive",
                doc: """
                    The ended live: only its id and its owner's name, fewer keys than t=26's `LinkedLive`.
                    """,
                [
                    .required("live_id", "liveID", .string, "the live's id."),
                    .required("owner_name", "ownerName", .string, "the streamer's display name."),
                ]),
        ]))
}
