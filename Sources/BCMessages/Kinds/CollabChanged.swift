extension BCResponse {
    /// t=70 `CollabChanged`: the live's collab (co-stream) state changed.
    ///
    /// From the 2022 app's model; no capture seen, so the flag may come as a number, a string or a boolean.
    public struct CollabChanged: BCPayload {
        /// `is_connected_streaming_collab`: a co-streaming collab is connected now.
        @ForcibleBool public var isConnectedStreamingCollab: Bool

        public init(isConnectedStreamingCollab: Bool) {
            self.isConnectedStreamingCollab = isConnectedStreamingCollab
        }

        enum CodingKeys: String, CodingKey {
            case isConnectedStreamingCollab = "is_connected_streaming_collab"
        }
    }
}
