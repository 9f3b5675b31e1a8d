extension BCResponse {
    /// t=89 `GiftRankingChanged`: the live's place in an event ranking changed.
    ///
    /// Known from the 2022 app's model only. The same short keys appear in a gift's `rankings` (`GiftRanking`).
    public struct GiftRankingChanged: BCPayload {
        /// `ei`: the event id.
        @ForcibleInt public var eventID: Int
        /// `iae`: the event is an app (game) event; declared a JSON bool, 0/1 accepted too.
        @ForcibleBool public var isAppEvent: Bool
        /// `nt`: when the ranking was computed, a nanosecond timestamp (orders updates).
        @ForcibleInt public var nanoTime: Int
        /// `r`: the rank.
        @ForcibleInt public var rank: Int
        /// `rt`: the rank as text to show.
        @ForcibleString public var rankText: String
        /// `rp`: the ranking point.
        @ForcibleInt public var rankingPoint: Int

        public init(eventID: Int, isAppEvent: Bool, nanoTime: Int, rank: Int, rankText: String, rankingPoint: Int) {
            self.eventID = eventID
            self.isAppEvent = isAppEvent
            self.nanoTime = nanoTime
            self.rank = rank
            self.rankText = rankText
            self.rankingPoint = rankingPoint
        }

        enum CodingKeys: String, CodingKey {
            case eventID = "ei"
            case isAppEvent = "iae"
            case nanoTime = "nt"
            case rank = "r"
            case rankText = "rt"
            case rankingPoint = "rp"
        }
    }
}
