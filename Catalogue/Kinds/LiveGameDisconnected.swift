import BCKindsGenerator

extension Catalogue {
    static let liveGameDisconnected = Kind(
        93, "liveGameDisconnected", "live-game disconnected", app: "LiveGameDisconnected", .appModel, Struct(
        "LiveGameDisconnected",
        doc: """
            t=93 `LiveGameDisconnected`: users left (were disconnected from) a live-game.

            App model only; no capture. Whether `user_ids` lists those who left or those who remain is not known.
            """,
        [
            .required("live_game_id", "liveGameID", .string, "the live-game."),
            .required("user_ids", "userIDs", .strings, "the users concerned (each a string or a number)."),
        ]))
}
