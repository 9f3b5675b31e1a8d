import BCKindsGenerator

extension Catalogue {
    static let collabReadyMatching = Kind(
        85, "collabReadyMatching", "collab matching ready", app: "CollabReadyMatching", .appModel, Struct(
        "CollabReadyMatching",
        doc: """
            t=85 `CollabReadyMatching`: collab matching is ready; shown as a system comment.

            App model only; no capture.
            """,
        [
            .required("cm", "text", .string, "the notice text shown in the comment list."),
            .required("speech", "speech", .string, "the text-to-speech line."),
        ]))
}
