extension BCResponse {
    /// t=85 `CollabReadyMatching`: collab matching is ready; shown as a system comment.
    ///
    /// App model only; no capture.
    public struct CollabReadyMatching: BCPayload {
        /// `cm`: the notice text shown in the comment list.
        @ForcibleString public var text: String
        /// `speech`: the text-to-speech line.
        @ForcibleString public var speech: String

        public init(text: String, speech: String) {
            self.text = text
            self.speech = speech
        }

        enum CodingKeys: String, CodingKey {
            case text = "cm"
            case speech
        }
    }
}
