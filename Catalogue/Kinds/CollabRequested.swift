import BCKindsGenerator

extension Catalogue {
    static let collabRequested = Kind(
        10, "collabRequested", "collab (co-stream) request", app: "CollabRequested", .appModel, Struct(
        "CollabRequested",
        doc: """
            t=10 `CollabRequested`: a viewer asked to join the live as a collab (co-stream) partner.

            From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
            """,
        [
            .user("Who asked: `u`, `ac`, `iurl`, `burl`."),
            .optional("collab_type", "collabType", .openEnum("CollabType"),
                "a call or a co-stream; the app's model allows it to be absent."),
            .required("is_reconnect", "isReconnect", .bool,
                "the requester is reconnecting to a collab that dropped, not asking anew."),
        ]))
}
