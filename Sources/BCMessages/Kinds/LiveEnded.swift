extension BCResponse {
    /// t=8 `LiveEnded`: the stream ended. Usually just `{"t":8}`; a listener stops on it.
    public struct LiveEnded: BCPayload {
        /// `delay`: a reconnect hint some servers attach, absent from every capture.
        public var delay: Delay?

        public init(delay: Delay? = nil) {
            self.delay = delay
        }

        /// A jittered back-off for clients, in camelCase keys unlike every other key of the service.
        public struct Delay: Hashable, Sendable, Codable {
            /// `uniMin`: the lower bound of the uniform jitter.
            @ForcibleDouble public var uniformMin: Double
            /// `uniMax`: the upper bound of the uniform jitter.
            @ForcibleDouble public var uniformMax: Double
            /// `expMultiplier`: the exponential back-off multiplier.
            @ForcibleDouble public var exponentialMultiplier: Double

            public init(uniformMin: Double, uniformMax: Double, exponentialMultiplier: Double) {
                self.uniformMin = uniformMin
                self.uniformMax = uniformMax
                self.exponentialMultiplier = exponentialMultiplier
            }

            enum CodingKeys: String, CodingKey {
                case uniformMin = "uniMin"
                case uniformMax = "uniMax"
                case exponentialMultiplier = "expMultiplier"
            }
        }
    }
}
