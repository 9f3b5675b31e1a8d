extension BCResponse {
    /// t=62 `ReceivedGiftGacha`: a gift gacha was drawn and added to the live's stock.
    ///
    /// Known from the 2022 app's model only.
    public struct GiftGacha: BCPayload {
        /// `type`: a normal gacha or a fever one.
        public var type: GiftGachaType
        /// `gift_event_id`: the gift event the gacha belongs to.
        @ForcibleInt public var giftEventID: Int
        /// `sender_id`: the user id of who drew it.
        @ForcibleString public var senderID: String
        /// `count`: how many were drawn.
        @ForcibleInt public var count: Int
        /// `image_url`: the drawn item's image.
        @ForcibleString public var imageURL: String
        /// `stock_image_url`: the image of the stock it went into.
        @ForcibleString public var stockImageURL: String
        /// `time`: a time in seconds the app's model does not explain (a duration or a unix time).
        @ForcibleInt public var time: Int
        /// `collab_user_id`: the collab partner's user id, during a collab; an int in the app's model, kept as
        /// a string like every other user id.
        @OptionalForcibleString public var collabUserID: String?

        public init(
            type: GiftGachaType, giftEventID: Int, senderID: String, count: Int, imageURL: String,
            stockImageURL: String, time: Int, collabUserID: String? = nil
        ) {
            self.type = type
            self.giftEventID = giftEventID
            self.senderID = senderID
            self.count = count
            self.imageURL = imageURL
            self.stockImageURL = stockImageURL
            self.time = time
            self.collabUserID = collabUserID
        }

        enum CodingKeys: String, CodingKey {
            case type
            case giftEventID = "gift_event_id"
            case senderID = "sender_id"
            case count
            case imageURL = "image_url"
            case stockImageURL = "stock_image_url"
            case time
            case collabUserID = "collab_user_id"
        }
    }
}
