extension BCResponse {
    /// One event ranking a gift moved, in a gift's `rankings` (t=35), in the service's short keys.
    ///
    /// Known from the 2022 app's model only; no capture has carried it. Every key is optional so that one
    /// incomplete ranking never costs the gift it came with. The event ranking message (t=89,
    /// `GiftRankingChanged`) reports the same `ei`, `iae`, `nt`, `r`, `rt`, `rp` on its own.
    public struct GiftRanking: Hashable, Sendable, Codable {
        /// `ei`: the event id.
        @OptionalForcibleInt public var eventID: Int?
        /// `et`: the event title.
        @OptionalForcibleString public var eventTitle: String?
        /// `eiu`: the event icon URL.
        @OptionalForcibleString public var eventIconURL: String?
        /// `iae`: the event is an app (game) event.
        @OptionalForcibleBool public var isAppEvent: Bool?
        /// `is_focus`: the event is the one in focus.
        @OptionalForcibleBool public var isFocus: Bool?
        /// `nt`: when the ranking was computed, a nanosecond timestamp (orders updates).
        @OptionalForcibleInt public var nanoTime: Int?
        /// `r`: the rank.
        @OptionalForcibleInt public var rank: Int?
        /// `rt`: the rank as text to show ("12位").
        @OptionalForcibleString public var rankText: String?
        /// `re`: play the rank-up animation.
        @OptionalForcibleBool public var showsRankUpAnimation: Bool?
        /// `rp`: the ranking point.
        @OptionalForcibleInt public var rankingPoint: Int?
        /// `tp`: the total point.
        @OptionalForcibleInt public var totalPoint: Int?
        /// `car`: the caster's (streamer's) rank after this gift.
        @OptionalForcibleInt public var casterRankAfter: Int?
        /// `cbr`: the caster's rank before this gift.
        @OptionalForcibleInt public var casterRankBefore: Int?
        /// `cg`: the caster's grade.
        @OptionalForcibleString public var casterGrade: String?
        /// `sar`: the sender's rank after this gift.
        @OptionalForcibleInt public var senderRankAfter: Int?
        /// `sbr`: the sender's rank before this gift.
        @OptionalForcibleInt public var senderRankBefore: Int?
        /// `sg`: the sender's grade.
        @OptionalForcibleString public var senderGrade: String?
        /// `ibu`: the user is banned from the ranking.
        @OptionalForcibleBool public var isBannedUser: Bool?
        /// `rap`: the point at which the reward was achieved.
        @OptionalForcibleInt public var rewardAchievedPoint: Int?
        /// `rnp`: the point needed for the next reward.
        @OptionalForcibleInt public var rewardNeedPoint: Int?
        /// `riu`: the reward icon URL.
        @OptionalForcibleString public var rewardIconURL: String?
        /// `ari`: the icons of rewards already achieved.
        @OptionalForcibleArray public var achievedRewardIconURLs: [String]?
        /// `biiu`: the banner icon image URL.
        @OptionalForcibleString public var bannerIconImageURL: String?
        /// `bilu`: where the banner links to.
        @OptionalForcibleString public var bannerLinkURL: String?
        /// `nrc`: casters ranked near this caster.
        public var nearbyCasters: [NearbyUser]?
        /// `nrs`: senders ranked near this sender.
        public var nearbySenders: [NearbyUser]?

        public init(
            eventID: Int? = nil, eventTitle: String? = nil, eventIconURL: String? = nil, isAppEvent: Bool? = nil,
            isFocus: Bool? = nil, nanoTime: Int? = nil, rank: Int? = nil, rankText: String? = nil,
            showsRankUpAnimation: Bool? = nil, rankingPoint: Int? = nil, totalPoint: Int? = nil,
            casterRankAfter: Int? = nil, casterRankBefore: Int? = nil, casterGrade: String? = nil,
            senderRankAfter: Int? = nil, senderRankBefore: Int? = nil, senderGrade: String? = nil,
            isBannedUser: Bool? = nil, rewardAchievedPoint: Int? = nil, rewardNeedPoint: Int? = nil,
            rewardIconURL: String? = nil, achievedRewardIconURLs: [String]? = nil, bannerIconImageURL: String? = nil,
            bannerLinkURL: String? = nil, nearbyCasters: [NearbyUser]? = nil, nearbySenders: [NearbyUser]? = nil
        ) {
            self.eventID = eventID
            self.eventTitle = eventTitle
            self.eventIconURL = eventIconURL
            self.isAppEvent = isAppEvent
            self.isFocus = isFocus
            self.nanoTime = nanoTime
            self.rank = rank
            self.rankText = rankText
            self.showsRankUpAnimation = showsRankUpAnimation
            self.rankingPoint = rankingPoint
            self.totalPoint = totalPoint
            self.casterRankAfter = casterRankAfter
            self.casterRankBefore = casterRankBefore
            self.casterGrade = casterGrade
            self.senderRankAfter = senderRankAfter
            self.senderRankBefore = senderRankBefore
            self.senderGrade = senderGrade
            self.isBannedUser = isBannedUser
            self.rewardAchievedPoint = rewardAchievedPoint
            self.rewardNeedPoint = rewardNeedPoint
            self.rewardIconURL = rewardIconURL
            self.achievedRewardIconURLs = achievedRewardIconURLs
            self.bannerIconImageURL = bannerIconImageURL
            self.bannerLinkURL = bannerLinkURL
            self.nearbyCasters = nearbyCasters
            self.nearbySenders = nearbySenders
        }

        enum CodingKeys: String, CodingKey {
            case eventID = "ei"
            case eventTitle = "et"
            case eventIconURL = "eiu"
            case isAppEvent = "iae"
            case isFocus = "is_focus"
            case nanoTime = "nt"
            case rank = "r"
            case rankText = "rt"
            case showsRankUpAnimation = "re"
            case rankingPoint = "rp"
            case totalPoint = "tp"
            case casterRankAfter = "car"
            case casterRankBefore = "cbr"
            case casterGrade = "cg"
            case senderRankAfter = "sar"
            case senderRankBefore = "sbr"
            case senderGrade = "sg"
            case isBannedUser = "ibu"
            case rewardAchievedPoint = "rap"
            case rewardNeedPoint = "rnp"
            case rewardIconURL = "riu"
            case achievedRewardIconURLs = "ari"
            case bannerIconImageURL = "biiu"
            case bannerLinkURL = "bilu"
            case nearbyCasters = "nrc"
            case nearbySenders = "nrs"
        }

        /// A user ranked near the gift's caster or sender (`nrc`, `nrs`), in short keys.
        public struct NearbyUser: Hashable, Sendable, Codable {
            /// `u`: the user's id.
            @OptionalForcibleString public var userID: String?
            /// `n`: the display name.
            @OptionalForcibleString public var name: String?
            /// `iu`: the profile icon URL.
            @OptionalForcibleString public var iconURL: String?
            /// `biu`: the badge image URL.
            @OptionalForcibleString public var badgeImageURL: String?
            /// `liu`: the label image URL.
            @OptionalForcibleString public var labelImageURL: String?
            /// `r`: the user's rank.
            @OptionalForcibleInt public var rank: Int?
            /// `gp`: the user's gift point.
            @OptionalForcibleInt public var giftPoint: Int?

            public init(
                userID: String? = nil, name: String? = nil, iconURL: String? = nil, badgeImageURL: String? = nil,
                labelImageURL: String? = nil, rank: Int? = nil, giftPoint: Int? = nil
            ) {
                self.userID = userID
                self.name = name
                self.iconURL = iconURL
                self.badgeImageURL = badgeImageURL
                self.labelImageURL = labelImageURL
                self.rank = rank
                self.giftPoint = giftPoint
            }

            enum CodingKeys: String, CodingKey {
                case userID = "u"
                case name = "n"
                case iconURL = "iu"
                case badgeImageURL = "biu"
                case labelImageURL = "liu"
                case rank = "r"
                case giftPoint = "gp"
            }
        }
    }
}
