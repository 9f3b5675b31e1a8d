import BCKindsGenerator

extension Catalogue {
    static let collabChanged = Kind(70, "collabChanged", "collab state", app: "CollabChanged", .appModel, Struct(
        "CollabChanged",
        doc: """
            t=70 `CollabChanged`: the live's collab (co-stream) state changed.

            From the 2022 app's model; no capture seen, so the flag may come as a number, a string or a boolean.
            """,
        [
            .required("is_connected_streaming_collab", "isConnectedStreamingCollab", .bool,
                "a co-streaming collab is connected now."),
        ]))
}
