import BCKindsGenerator

extension Catalogue {
    static let collabStartedByMatching = Kind(
        87, "collabStartedByMatching", "collab started by matching", app: "CollabStartByMatching", .appModel, Struct(
        "CollabStartedByMatching",
        doc: """
            t=87 `CollabStartByMatching`: a collab started through matching.

            App model only; no capture. Carries the user block without `burl`.
            """,
        [
            .user("The user the collab started with: `u`, `ac`, `iurl`."),
        ]))
}
