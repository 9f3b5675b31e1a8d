import BCKindsGenerator

extension Catalogue {
    static let giftGacha = Kind(62, "giftGacha", "gift-gacha stock", app: "ReceivedGiftGacha", .appModel, Struct(
        "GiftGacha",
        doc: """
            t=62 `ReceivedGiftGacha`: a gift gacha was drawn and added to the live's stock.

            Known from the 2022 app's model only.
            """,
        [
            .required("type", "type", .openEnum("GiftGachaType"), "a normal gacha or a fever one."),
            .required("gift_event_id", "giftEventID", .int, "the gift event the gacha belongs to."),
            .required("sender_id", "senderID", .string, "the user id of who drew it."),
            .required("count", "count", .int, "how many were drawn."),
            .required("image_url", "imageURL", .string, "the drawn item's image."),
            .required("stock_image_url", "stockImageURL", .string, "the image of the stock it went into."),
            .required("time", "time", .int,
                "a time in seconds the app's model does not explain (a duration or a unix time)."),
            .optional("collab_user_id", "collabUserID", .string,
                "the collab partner's user id, during a collab; an int in the app's model, kept as a string like every other user id."),
        ]))
}
