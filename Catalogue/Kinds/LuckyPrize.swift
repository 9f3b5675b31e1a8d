import BCKindsGenerator

extension Catalogue {
    static let luckyPrize = Kind(113, "luckyPrize", "lucky prize", app: "LuckyPrizeReceived", .appModel, Struct(
        "LuckyPrize",
        doc: """
            t=113 `LuckyPrizeReceived`: a viewer won a lucky prize.

            Known from the 2022 app's model only.
            """,
        [
            .user("Who won it: `u`, `ac`, `iurl`, `burl`."),
            .required("speech", "speech", .string, "the text-to-speech line."),
            .required("reward_title", "rewardTitle", .string, "the prize's name."),
            .required("reward_image_url", "rewardImageURL", .string, "the prize's image."),
        ]))
}
