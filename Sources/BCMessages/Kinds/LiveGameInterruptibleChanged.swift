extension BCResponse {
    /// t=114 `LiveGameInterruptibleChanged`: whether the running live-game may be interrupted changed.
    ///
    /// App model only; no capture. `interruptible` is declared a JSON boolean, but read from 0/1 and "0"/"1"
    /// too; encoded as 0/1 like every flag.
    public struct LiveGameInterruptibleChanged: BCPayload {
        /// `interruptible`: the live-game may be interrupted now.
        @ForcibleBool public var isInterruptible: Bool
        /// `sent_at`: when the server sent the change (a long in the app; unix milliseconds, unconfirmed).
        @ForcibleInt public var sentAt: Int

        public init(isInterruptible: Bool, sentAt: Int) {
            self.isInterruptible = isInterruptible
            self.sentAt = sentAt
        }

        enum CodingKeys: String, CodingKey {
            case isInterruptible = "interruptible"
            case sentAt = "sent_at"
        }
    }
}
