import BCKindsGenerator

extension Catalogue {
    static let liveURLShared = Kind(
        16, "liveURLShared", "viewer shared the live URL", app: "LiveUrlShared", .appModel, Struct(
        "LiveURLShared",
        doc: """
            t=16 `LiveUrlShared`: a viewer shared the live's URL.

            From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
            """,
        [
            .user("Who shared: `u`, `ac`, `iurl`, `burl`."),
            .required("is_moderator", "isModerator", .bool, "the viewer moderates this live."),
        ]))
}
