extension BCResponse {
    /// t=56 `FeverValueChanged`: the live's fever meter moved.
    ///
    /// From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
    public struct FeverChanged: BCPayload {
        /// `current_meter`: the meter's value now.
        @ForcibleInt public var currentMeter: Int
        /// `max_meter`: the value at which the meter is full.
        @ForcibleInt public var maxMeter: Int
        /// `starts_at`: when the fever starts, unix time (a long in the app; seconds or milliseconds unknown).
        @ForcibleInt public var startsAt: Int
        /// `ends_at`: when the fever ends, in the same unit as `starts_at`.
        @ForcibleInt public var endsAt: Int

        public init(currentMeter: Int, maxMeter: Int, startsAt: Int, endsAt: Int) {
            self.currentMeter = currentMeter
            self.maxMeter = maxMeter
            self.startsAt = startsAt
            self.endsAt = endsAt
        }

        enum CodingKeys: String, CodingKey {
            case currentMeter = "current_meter"
            case maxMeter = "max_meter"
            case startsAt = "starts_at"
            case endsAt = "ends_at"
        }
    }
}
