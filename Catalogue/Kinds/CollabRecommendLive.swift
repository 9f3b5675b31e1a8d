import BCKindsGenerator

extension Catalogue {
    static let collabRecommendLive = Kind(
        77, "collabRecommendLive", "recommend a collab live", app: "CollabRecommendLive", .appModel, Struct(
        "CollabRecommendLive",
        doc: """
            t=77 `CollabRecommendLive`: a live is recommended for a collab, shown as a comment.

            From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
            """,
        [
            .user("Who the recommendation is shown as: `u`, `ac`, `iurl`, `burl`."),
            .required("cm", "text", .string, "the recommendation text."),
            .required("speech", "speech", .string, "the text-to-speech line."),
            .required("live_id", "liveID", .string, "the id of the recommended live."),
        ]))
}
