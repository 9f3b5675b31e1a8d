extension BCResponse {
    /// t=84 `MatchingLive`: this live was matched with another live; shown as a system comment.
    ///
    /// App model only; no capture.
    public struct MatchingLive: BCPayload {
        /// `cm`: the notice text shown in the comment list.
        @ForcibleString public var text: String
        /// `speech`: the text-to-speech line.
        @ForcibleString public var speech: String
        /// `matched_live_id`: the live matched with.
        @ForcibleString public var matchedLiveID: String

        public init(text: String, speech: String, matchedLiveID: String) {
            self.text = text
            self.speech = speech
            self.matchedLiveID = matchedLiveID
        }

        enum CodingKeys: String, CodingKey {
            case text = "cm"
            case speech
            case matchedLiveID = "matched_live_id"
        }
    }
}
