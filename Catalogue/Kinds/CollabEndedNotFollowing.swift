import BCKindsGenerator

extension Catalogue {
    static let collabEndedNotFollowing = Kind(
        88, "collabEndedNotFollowing", "collab ended: user not followed",
        app: "CollabEndNotFollowUser", .appModel, Struct(
        "CollabEndedNotFollowing",
        doc: """
            t=88 `CollabEndNotFollowUser`: a collab ended with a partner the user does not follow yet.

            App model only; no capture; meaning guessed from the event name (likely so the app can offer to follow
            the partner). Carries the user block without `burl`.
            """,
        [
            .user("The collab partner: `u`, `ac`, `iurl`."),
        ]))
}
