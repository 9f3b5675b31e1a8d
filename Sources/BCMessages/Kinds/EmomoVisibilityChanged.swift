extension BCResponse {
    /// t=108 `EmomoVisibilityChanged`: the streamer's avatar (emomo) was shown or hidden.
    ///
    /// App model only; no capture. Declared a JSON boolean, but read from 0/1 and "0"/"1" too, as most of the
    /// service's flags arrive; encoded as 0/1 like every flag.
    public struct EmomoVisibilityChanged: BCPayload {
        /// `is_visible`: the avatar is shown.
        @ForcibleBool public var isVisible: Bool

        public init(isVisible: Bool) {
            self.isVisible = isVisible
        }

        enum CodingKeys: String, CodingKey {
            case isVisible = "is_visible"
        }
    }
}
