import BCKindsGenerator

extension Catalogue {
    static let appUserIDPosted = Kind(
        49, "appUserIDPosted", "viewer posted their in-game user id",
        app: "AppUserDetailCommentReceived", .appModel, Struct(
        "AppUserIDPosted",
        doc: """
            t=49 `AppUserDetailCommentReceived`: a viewer posted their user id in the streamed game.

            From the 2022 app's model; no capture seen, so any scalar may come as a number or a string (an app user id
            sent as a number keeps every digit).
            """,
        [
            .user("Who posted: `u`, `ac`, `iurl`, `burl`."),
            .required("type", "type", .int, "the kind of app user detail; values not documented."),
            .required("cm", "appUserID", .string,
                "the viewer's user id in the streamed game, sent as the comment text."),
            .required("collab_streamer_ac", "collabStreamerName", .string,
                "the collab streamer's display name, `\"\"` outside a collab."),
        ]))
}
