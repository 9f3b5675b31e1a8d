import BCKindsGenerator

extension Catalogue {
    static let liveGameConnected = Kind(
        92, "liveGameConnected", "live-game started or joined", app: "LiveGameConnected", .appModel, Struct(
        "LiveGameConnected",
        doc: """
            t=92 `LiveGameConnected`: a live-game (a game played together on the live) started or was joined.

            App model only; no capture. The requesting user's keys are not the shared user block (`u`, `ac`, ...),
            so they stay plain fields.
            """,
        [
            .required("live_game_id", "liveGameID", .string, "the live-game."),
            .required("play_id", "playID", .string, "this play (session) of the live-game."),
            .required("title", "title", .string, "the live-game's title."),
            .required("request_user_id", "requestUserID", .string, "the user who requested the game."),
            .required("request_user_name", "requestUserName", .string, "the requesting user's display name."),
            .required("request_user_image_url", "requestUserImageURL", .string, "the requesting user's profile image."),
            .required("request_user_badge_url", "requestUserBadgeURL", .string,
                "the requesting user's badge image (often `\"\"`)."),
            .required("user_ids", "userIDs", .strings, "the users connected to the game (each a string or a number)."),
        ]))
}
