import BCKindsGenerator

extension Catalogue {
    static let userLevelGiftReload = Kind(
        72, "userLevelGiftReload", "reload level gift", app: "ReloadUserLevelGift", .appModel, Struct(
        "UserLevelGiftReload",
        doc: """
            t=72 `ReloadUserLevelGift`: a user's level gifts changed; the client should reload them.

            From the 2022 app's model; no capture seen, so the id may come as a number or a string.
            """,
        [
            .required("u", "userID", .string, "the id of the user whose level gifts to reload."),
        ]))
}
