import BCKindsGenerator

extension Catalogue {
    static let memo = Kind(
        19, "memo", "memo or notice shown as a comment", app: "MemoBroadcast", .appModelMeaningGuessed, Struct(
        "Memo",
        doc: """
            t=19 `MemoBroadcast`: a memo or notice shown as a comment (meaning guessed from the name).

            From the 2022 app's model, which parses it with its comment class; no capture seen. The user block and `cm`
            are required, like a comment; every other comment key is optional (read them as properties: `memo.speech`).
            """,
        [
            .user("Who the memo is shown as: `u`, `ac`, `iurl`, `burl`."),
            .required("cm", "text", .string, "the memo text shown as a comment."),
            .optional("lci", "commentID", .string, "the live comment id (string or number on the wire)."),
            .attributes("The comment class's optional keys."),
        ]))
}
