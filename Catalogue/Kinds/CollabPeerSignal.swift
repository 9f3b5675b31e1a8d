import BCKindsGenerator

extension Catalogue {
    static let collabPeerSignal = Kind(
        13, "collabPeerSignal", "collab peer signalling relay",
        app: "CollabReceivedPeer", .appModelMeaningGuessed, Struct(
        "CollabPeerSignal",
        doc: """
            t=13 `CollabReceivedPeer`: a signalling message relayed between collab (co-stream) peers.

            From the 2022 app's model; the meaning is guessed from its name. `raw` is kept as the opaque text it is.
            """,
        [
            .required("sender_id", "senderID", .string, "the id of the peer that sent the signal."),
            .required("raw", "raw", .string, "the signal itself, an opaque string passed on untouched."),
        ]))
}
