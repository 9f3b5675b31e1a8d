extension BCResponse {
    /// t=35 `GiftCommentReceived`: a viewer sent a gift.
    ///
    /// Captured. Wire quirks: the numbers (`coins`, `gift_id`, `gift_type`, `total_gift_coins`,
    /// `live_sent_gift_id`, ...) come as strings; `count` as `"8"` or `1`; `slot_id` as the number `0`.
    /// Captures differ a lot in which keys they carry, so only who sent what, and how many, is required.
    /// No capture has `created_at`.
    public struct Gift: BCPayload, UserAttributed {
        /// Who sent it: `u`, `ac`, `iurl`, `burl`.
        public var user: User
        /// `gift_id`: the gift item's id.
        @ForcibleString public var giftID: String
        /// `gift_title`: the gift's name ("小さなハート").
        @ForcibleString public var giftTitle: String
        /// `gift_type`: the kind of gift item (`0` for an ordinary one).
        @OptionalForcibleInt public var giftType: Int?
        /// `gift_small_image_url`: the gift's small image.
        @OptionalForcibleString public var giftSmallImageURL: String?
        /// `gift_large_image_url`: the gift's large image.
        @OptionalForcibleString public var giftLargeImageURL: String?
        /// `coins`: the price of one gift, in coins.
        @ForcibleInt public var coins: Int
        /// `count`: how many were sent at once.
        @ForcibleInt public var count: Int
        /// `total_gift_coins`: the running total of coins gifted in this live.
        @OptionalForcibleInt public var totalGiftCoins: Int?
        /// `nameplate_enabled`: whether the sender's nameplate is shown (`1`); an int in the app's model.
        @OptionalForcibleInt public var nameplateEnabled: Int?
        /// `pause_duration`: how long the gift animation pauses, in seconds.
        @OptionalForcibleDouble public var pauseDuration: Double?
        /// `orientations`: the screen orientations the animation is made for.
        @OptionalForcibleInt public var orientations: Int?
        /// `should_play_animation`: play the gift's animation.
        @OptionalForcibleBool public var shouldPlayAnimation: Bool?
        /// `is_moderator`: the sender moderates this live.
        @OptionalForcibleBool public var isModerator: Bool?
        /// `is_cheerleader`: the sender is a cheerleader of this streamer.
        @OptionalForcibleBool public var isCheerleader: Bool?
        /// `became_cheerleader`: this gift made the sender a cheerleader.
        @OptionalForcibleBool public var becameCheerleader: Bool?
        /// `ils`: this is the last gift of a run sent in a row.
        @OptionalForcibleBool public var isLastSent: Bool?
        /// `live_sent_gift_id`: this sending's id, kept digit for digit however long.
        @OptionalForcibleString public var liveSentGiftID: String?
        /// `slot_id`: the slot the gift is shown in (`0` on the wire).
        @OptionalForcibleString public var slotID: String?
        /// `speech`: the text-to-speech line ("ねこまるが小さなハートを贈りました").
        @OptionalForcibleString public var speech: String?
        /// `collab_streamer_ac`: the collab streamer's display name, during a collab.
        @OptionalForcibleString public var collabStreamerName: String?
        /// `avatar_body_image_url`: the sender's avatar image.
        @OptionalForcibleString public var avatarBodyImageURL: String?
        /// `avatar_user_ids`: the ids of the users whose avatars the gift shows, comma-separated.
        @OptionalForcibleString public var avatarUserIDs: String?
        /// `effect_id`: the effect the gift plays.
        @OptionalForcibleString public var effectID: String?
        /// `pose_id`: the avatar pose the gift plays.
        @OptionalForcibleString public var poseID: String?
        /// `message`: a message sent with the gift.
        @OptionalForcibleString public var message: String?
        /// `share_text`: the text offered for sharing the gift.
        @OptionalForcibleString public var shareText: String?
        /// `p`: the points the gift earned.
        @OptionalForcibleInt public var point: Int?
        /// `yell_rank`: the sender's cheer rank.
        public var yellRank: YellRank?
        /// `yell_level`: the sender's cheer level.
        @OptionalForcibleInt public var yellLevel: Int?
        /// `rankings`: the event rankings this gift moved.
        public var rankings: [GiftRanking]?
        /// `photo_gift_id`: the photo's id, on a photo gift.
        @OptionalForcibleString public var photoGiftID: String?
        /// `is_photo_gift`: the gift carries a photo (avatar snapshot).
        @OptionalForcibleBool public var isPhotoGift: Bool?
        /// `photo_gift_image_url`: the photo, on a photo gift.
        @OptionalForcibleString public var photoGiftImageURL: String?

        /// `avatar_user_ids` split at its commas: empty when the key is absent or empty.
        public var avatarUserIDList: [String] {
            (avatarUserIDs ?? "").split(separator: ",").map(String.init)
        }

        public init(
            user: User, giftID: String, giftTitle: String, giftType: Int? = nil, giftSmallImageURL: String? = nil,
            giftLargeImageURL: String? = nil, coins: Int, count: Int, totalGiftCoins: Int? = nil,
            nameplateEnabled: Int? = nil, pauseDuration: Double? = nil, orientations: Int? = nil,
            shouldPlayAnimation: Bool? = nil, isModerator: Bool? = nil, isCheerleader: Bool? = nil,
            becameCheerleader: Bool? = nil, isLastSent: Bool? = nil, liveSentGiftID: String? = nil,
            slotID: String? = nil, speech: String? = nil, collabStreamerName: String? = nil,
            avatarBodyImageURL: String? = nil, avatarUserIDs: String? = nil, effectID: String? = nil,
            poseID: String? = nil, message: String? = nil, shareText: String? = nil, point: Int? = nil,
            yellRank: YellRank? = nil, yellLevel: Int? = nil, rankings: [GiftRanking]? = nil,
            photoGiftID: String? = nil, isPhotoGift: Bool? = nil, photoGiftImageURL: String? = nil
        ) {
            self.user = user
            self.giftID = giftID
            self.giftTitle = giftTitle
            self.giftType = giftType
            self.giftSmallImageURL = giftSmallImageURL
            self.giftLargeImageURL = giftLargeImageURL
            self.coins = coins
            self.count = count
            self.totalGiftCoins = totalGiftCoins
            self.nameplateEnabled = nameplateEnabled
            self.pauseDuration = pauseDuration
            self.orientations = orientations
            self.shouldPlayAnimation = shouldPlayAnimation
            self.isModerator = isModerator
            self.isCheerleader = isCheerleader
            self.becameCheerleader = becameCheerleader
            self.isLastSent = isLastSent
            self.liveSentGiftID = liveSentGiftID
            self.slotID = slotID
            self.speech = speech
            self.collabStreamerName = collabStreamerName
            self.avatarBodyImageURL = avatarBodyImageURL
            self.avatarUserIDs = avatarUserIDs
            self.effectID = effectID
            self.poseID = poseID
            self.message = message
            self.shareText = shareText
            self.point = point
            self.yellRank = yellRank
            self.yellLevel = yellLevel
            self.rankings = rankings
            self.photoGiftID = photoGiftID
            self.isPhotoGift = isPhotoGift
            self.photoGiftImageURL = photoGiftImageURL
        }

        enum CodingKeys: String, CodingKey {
            case giftID = "gift_id"
            case giftTitle = "gift_title"
            case giftType = "gift_type"
            case giftSmallImageURL = "gift_small_image_url"
            case giftLargeImageURL = "gift_large_image_url"
            case coins
            case count
            case totalGiftCoins = "total_gift_coins"
            case nameplateEnabled = "nameplate_enabled"
            case pauseDuration = "pause_duration"
            case orientations
            case shouldPlayAnimation = "should_play_animation"
            case isModerator = "is_moderator"
            case isCheerleader = "is_cheerleader"
            case becameCheerleader = "became_cheerleader"
            case isLastSent = "ils"
            case liveSentGiftID = "live_sent_gift_id"
            case slotID = "slot_id"
            case speech
            case collabStreamerName = "collab_streamer_ac"
            case avatarBodyImageURL = "avatar_body_image_url"
            case avatarUserIDs = "avatar_user_ids"
            case effectID = "effect_id"
            case poseID = "pose_id"
            case message
            case shareText = "share_text"
            case point = "p"
            case yellRank = "yell_rank"
            case yellLevel = "yell_level"
            case rankings
            case photoGiftID = "photo_gift_id"
            case isPhotoGift = "is_photo_gift"
            case photoGiftImageURL = "photo_gift_image_url"
        }

        public init(from decoder: any Decoder) throws {
            user = try User(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _giftID = try container.decode(ForcibleString.self, forKey: .giftID)
            _giftTitle = try container.decode(ForcibleString.self, forKey: .giftTitle)
            _giftType = try container.decode(OptionalForcibleInt.self, forKey: .giftType)
            _giftSmallImageURL = try container.decode(OptionalForcibleString.self, forKey: .giftSmallImageURL)
            _giftLargeImageURL = try container.decode(OptionalForcibleString.self, forKey: .giftLargeImageURL)
            _coins = try container.decode(ForcibleInt.self, forKey: .coins)
            _count = try container.decode(ForcibleInt.self, forKey: .count)
            _totalGiftCoins = try container.decode(OptionalForcibleInt.self, forKey: .totalGiftCoins)
            _nameplateEnabled = try container.decode(OptionalForcibleInt.self, forKey: .nameplateEnabled)
            _pauseDuration = try container.decode(OptionalForcibleDouble.self, forKey: .pauseDuration)
            _orientations = try container.decode(OptionalForcibleInt.self, forKey: .orientations)
            _shouldPlayAnimation = try container.decode(OptionalForcibleBool.self, forKey: .shouldPlayAnimation)
            _isModerator = try container.decode(OptionalForcibleBool.self, forKey: .isModerator)
            _isCheerleader = try container.decode(OptionalForcibleBool.self, forKey: .isCheerleader)
            _becameCheerleader = try container.decode(OptionalForcibleBool.self, forKey: .becameCheerleader)
            _isLastSent = try container.decode(OptionalForcibleBool.self, forKey: .isLastSent)
            _liveSentGiftID = try container.decode(OptionalForcibleString.self, forKey: .liveSentGiftID)
            _slotID = try container.decode(OptionalForcibleString.self, forKey: .slotID)
            _speech = try container.decode(OptionalForcibleString.self, forKey: .speech)
            _collabStreamerName = try container.decode(OptionalForcibleString.self, forKey: .collabStreamerName)
            _avatarBodyImageURL = try container.decode(OptionalForcibleString.self, forKey: .avatarBodyImageURL)
            _avatarUserIDs = try container.decode(OptionalForcibleString.self, forKey: .avatarUserIDs)
            _effectID = try container.decode(OptionalForcibleString.self, forKey: .effectID)
            _poseID = try container.decode(OptionalForcibleString.self, forKey: .poseID)
            _message = try container.decode(OptionalForcibleString.self, forKey: .message)
            _shareText = try container.decode(OptionalForcibleString.self, forKey: .shareText)
            _point = try container.decode(OptionalForcibleInt.self, forKey: .point)
            yellRank = try container.decodeIfPresent(YellRank.self, forKey: .yellRank)
            _yellLevel = try container.decode(OptionalForcibleInt.self, forKey: .yellLevel)
            rankings = try container.decodeIfPresent([GiftRanking].self, forKey: .rankings)
            _photoGiftID = try container.decode(OptionalForcibleString.self, forKey: .photoGiftID)
            _isPhotoGift = try container.decode(OptionalForcibleBool.self, forKey: .isPhotoGift)
            _photoGiftImageURL = try container.decode(OptionalForcibleString.self, forKey: .photoGiftImageURL)
        }

        public func encode(to encoder: any Encoder) throws {
            try user.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(_giftID, forKey: .giftID)
            try container.encode(_giftTitle, forKey: .giftTitle)
            try container.encode(_giftType, forKey: .giftType)
            try container.encode(_giftSmallImageURL, forKey: .giftSmallImageURL)
            try container.encode(_giftLargeImageURL, forKey: .giftLargeImageURL)
            try container.encode(_coins, forKey: .coins)
            try container.encode(_count, forKey: .count)
            try container.encode(_totalGiftCoins, forKey: .totalGiftCoins)
            try container.encode(_nameplateEnabled, forKey: .nameplateEnabled)
            try container.encode(_pauseDuration, forKey: .pauseDuration)
            try container.encode(_orientations, forKey: .orientations)
            try container.encode(_shouldPlayAnimation, forKey: .shouldPlayAnimation)
            try container.encode(_isModerator, forKey: .isModerator)
            try container.encode(_isCheerleader, forKey: .isCheerleader)
            try container.encode(_becameCheerleader, forKey: .becameCheerleader)
            try container.encode(_isLastSent, forKey: .isLastSent)
            try container.encode(_liveSentGiftID, forKey: .liveSentGiftID)
            try container.encode(_slotID, forKey: .slotID)
            try container.encode(_speech, forKey: .speech)
            try container.encode(_collabStreamerName, forKey: .collabStreamerName)
            try container.encode(_avatarBodyImageURL, forKey: .avatarBodyImageURL)
            try container.encode(_avatarUserIDs, forKey: .avatarUserIDs)
            try container.encode(_effectID, forKey: .effectID)
            try container.encode(_poseID, forKey: .poseID)
            try container.encode(_message, forKey: .message)
            try container.encode(_shareText, forKey: .shareText)
            try container.encode(_point, forKey: .point)
            try container.encodeIfPresent(yellRank, forKey: .yellRank)
            try container.encode(_yellLevel, forKey: .yellLevel)
            try container.encodeIfPresent(rankings, forKey: .rankings)
            try container.encode(_photoGiftID, forKey: .photoGiftID)
            try container.encode(_isPhotoGift, forKey: .isPhotoGift)
            try container.encode(_photoGiftImageURL, forKey: .photoGiftImageURL)
        }
    }
}
