import BCKindsGenerator

extension Catalogue {
    static let collabAccepted = Kind(11, "collabAccepted", "collab accepted", app: "CollabAccepted", .appModel, Struct(
        "CollabAccepted",
        doc: """
            t=11 `CollabAccepted`: the streamer accepted a collab (co-stream) request.

            From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
            """,
        [
            .required("u", "userID", .string, "the id of the user whose request was accepted."),
        ]))
}
