extension BCResponse {
    /// t=90 `MatchingStarterToStarter`: this live, having started a matching, was matched with another
    /// starter's live.
    ///
    /// App model only; no capture; meaning guessed from the event name.
    public struct MatchingStarterToStarter: BCPayload {
        /// `matched_live_id`: the live matched with.
        @ForcibleString public var matchedLiveID: String

        public init(matchedLiveID: String) {
            self.matchedLiveID = matchedLiveID
        }

        enum CodingKeys: String, CodingKey {
            case matchedLiveID = "matched_live_id"
        }
    }
}
