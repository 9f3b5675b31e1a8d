extension BCResponse {
    /// t=60 `StopBroadcasting`: an order to the streamer to stop broadcasting, with a message saying why.
    ///
    /// From the 2022 app's model; the meaning is guessed from its name (a streamer-side message).
    public struct StopBroadcasting: BCPayload {
        /// `msg`: the message to show the streamer.
        @ForcibleString public var message: String

        public init(message: String) {
            self.message = message
        }

        enum CodingKeys: String, CodingKey {
            case message = "msg"
        }
    }
}
