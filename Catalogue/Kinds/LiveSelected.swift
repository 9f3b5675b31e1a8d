import BCKindsGenerator

extension Catalogue {
    static let liveSelected = Kind(
        9, "liveSelected", "viewer went to another live", app: "LiveSelected", .captured, Struct(
        "LiveSelected",
        doc: """
            t=9 `LiveSelected`: a viewer went to another live (meaning inferred from the fields).

            Captured. Wire extra: `target_live_id`, the live the viewer went to. `iurl` and `burl` may be absent.
            """,
        [
            .user("Who left: `u`, `ac`, `iurl`, `burl`."),
            .required("owner_name", "ownerName", .string,
                "the display name of the owner of the live the viewer went to."),
            .optional("target_live_id", "targetLiveID", .string,
                "the id of the live the viewer went to; seen on the wire only."),
        ]))
}
