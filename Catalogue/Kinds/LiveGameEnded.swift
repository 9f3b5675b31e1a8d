import BCKindsGenerator

extension Catalogue {
    static let liveGameEnded = Kind(94, "liveGameEnded", "live-game ended", app: "LiveGameEnded", .appModel, Struct(
        "LiveGameEnded",
        doc: """
            t=94 `LiveGameEnded`: a live-game ended.

            App model only; no capture.
            """,
        [
            .required("live_game_id", "liveGameID", .string, "the live-game that ended."),
        ]))
}
