import BCKindsGenerator

extension Catalogue {
    static let collabStartedByMatching = Struct(
        "CollabStartedByMatching",
        doc: """
            t=87 `CollabStartByMatching`: a collab started through matching.

            App model only; no capture. Carries the user block without `burl`.
            """,
        [
            .user("The user the collab started with: `u`, `ac`, `iurl`."),
        ])
}
