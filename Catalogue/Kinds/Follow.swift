import BCKindsGenerator

extension Catalogue {
    static let follow = Kind(4, "follow", "a viewer followed the streamer", app: "StreamerFollowed", .appModel, Struct(
        "Follow",
        doc: """
            t=4 `StreamerFollowed`: a viewer followed the streamer.

            From the 2022 app's model, which parses it with its comment class; no capture seen. Only the user block is
            required: every comment key is optional (read them as properties: `follow.speech`).
            """,
        [
            .user("Who followed: `u`, `ac`, `iurl`, `burl`."),
            .optional("cm", "text", .string, "the comment text, if any."),
            .optional("lci", "commentID", .string, "the live comment id (string or number on the wire)."),
            .attributes("The comment class's optional keys."),
        ]))
}
