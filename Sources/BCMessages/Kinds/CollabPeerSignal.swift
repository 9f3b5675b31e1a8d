extension BCResponse {
    /// t=13 `CollabReceivedPeer`: a signalling message relayed between collab (co-stream) peers.
    ///
    /// From the 2022 app's model; the meaning is guessed from its name. `raw` is kept as the opaque text it is.
    public struct CollabPeerSignal: BCPayload {
        /// `sender_id`: the id of the peer that sent the signal.
        @ForcibleString public var senderID: String
        /// `raw`: the signal itself, an opaque string passed on untouched.
        @ForcibleString public var raw: String

        public init(senderID: String, raw: String) {
            self.senderID = senderID
            self.raw = raw
        }

        enum CodingKeys: String, CodingKey {
            case senderID = "sender_id"
            case raw
        }
    }
}
