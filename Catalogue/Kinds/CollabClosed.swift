import BCKindsGenerator

extension Catalogue {
    static let collabClosed = Kind(14, "collabClosed", "collab ended", app: "CollabClosed", .appModel, Struct(
        "CollabClosed",
        doc: """
            t=14 `CollabClosed`: a collab (co-stream) ended.

            From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
            """,
        [
            .user("Who closed it: `u`, `ac`, `iurl`, `burl`."),
        ]))
}
