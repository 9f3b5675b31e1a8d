extension BCResponse {
    /// t=112 `MutualGiftReceivableRewards`: mutual-gift goals whose rewards can now be received.
    ///
    /// Known from the 2022 app's model only.
    public struct MutualGiftRewards: BCPayload {
        /// `receivable_rewards`: the achieved goals with a reward to receive.
        public var receivableRewards: [MutualGiftAchieved]

        public init(receivableRewards: [MutualGiftAchieved]) {
            self.receivableRewards = receivableRewards
        }

        enum CodingKeys: String, CodingKey {
            case receivableRewards = "receivable_rewards"
        }
    }
}
