import BCKindsGenerator

extension Catalogue {
    static let join = Kind(3, "join", "viewer entered the live", app: "LiveJoined", .captured, Struct(
        "Join",
        doc: """
            t=3 `LiveJoined`: a viewer entered the live.

            Captured. The app parses it with its comment model, so every comment key may appear (read them as
            properties: `join.speech`); the wire adds `online_viewer_num`. Wire quirks: `lci` is `0` as a number;
            `is_moderator` and `d` as 0/1.
            """,
        [
            .user("Who entered: `u`, `ac`, `iurl`, `burl`."),
            .optional("cm", "text", .string, "the comment text; absent from captured joins."),
            .required("lci", "commentID", .string, "the live comment id, `0` (a number) in captured joins."),
            .optional("online_viewer_num", "onlineViewerCount", .int, "viewers watching now, this viewer included."),
            .attributes("The comment class's optional keys (`speech` is \"<name>が入室しました\")."),
        ]))
}
