import BCKindsGenerator

extension Catalogue {
    static let mutualGiftRewards = Kind(
        112, "mutualGiftRewards", "mutual-gift rewards to receive",
        app: "MutualGiftReceivableRewards", .appModel, Struct(
        "MutualGiftRewards",
        doc: """
            t=112 `MutualGiftReceivableRewards`: mutual-gift goals whose rewards can now be received.

            Known from the 2022 app's model only.
            """,
        [
            .required("receivable_rewards", "receivableRewards", .objects("MutualGiftAchieved"),
                "the achieved goals with a reward to receive."),
        ]))
}
