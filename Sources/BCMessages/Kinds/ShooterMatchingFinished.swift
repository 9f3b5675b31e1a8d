extension BCResponse {
    /// t=107 `ShooterMatchingFinished`: the shooter mini-game's matching finished.
    ///
    /// App model only; no capture.
    public struct ShooterMatchingFinished: BCPayload {
        /// `time`: a time the app declares as a long; its unit and meaning (moment or duration) are not known.
        @ForcibleInt public var time: Int

        public init(time: Int) {
            self.time = time
        }
    }
}
