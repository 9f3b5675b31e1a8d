import BCKindsGenerator

extension Catalogue {
    static let comment = Kind(1, "comment", "viewer comment", app: "LiveCommentReceived", .captured, Struct(
        "Comment",
        doc: """
            t=1 `LiveCommentReceived`: a viewer's comment.

            Captured. Wire quirks: `lci` comes as a string or a number; `is_moderator` as 0/1. The comment class's
            optional keys (`speech`, `is_moderator`, `yell_rank`, …) read as properties: `comment.isModerator`.
            """,
        [
            .user("Who commented: `u`, `ac`, `iurl`, `burl`."),
            .required("cm", "text", .string, "the comment text."),
            .required("lci", "commentID", .string, "the live comment id (string or number on the wire)."),
            .attributes("The comment class's optional keys."),
        ]))
}
