extension BCResponse {
    /// t=1 `LiveCommentReceived`: a viewer's comment.
    ///
    /// Captured. Wire quirks: `lci` comes as a string or a number; `is_moderator` as 0/1.
    public struct Comment: BCPayload {
        /// Who commented: `u`, `ac`, `iurl`, `burl`.
        public var user: User
        /// `cm`: the comment text.
        @ForcibleString public var text: String
        /// `lci`: the live comment id (string or number on the wire).
        @ForcibleString public var commentID: String
        /// `speech`: the text-to-speech line, `""` or "name text".
        @OptionalForcibleString public var speech: String?
        /// `is_moderator`: the commenter moderates this live.
        @OptionalForcibleBool public var isModerator: Bool?
        /// `is_cheerleader`: the commenter is a cheerleader of this streamer.
        @OptionalForcibleBool public var isCheerleader: Bool?
        /// `yell_rank`: the commenter's cheer rank.
        public var yellRank: YellRank?
        /// `yell_level`: the commenter's cheer level.
        @OptionalForcibleInt public var yellLevel: Int?
        /// `linked_live_owner_name`: set when the commenter came over from a linked live.
        @OptionalForcibleString public var linkedLiveOwnerName: String?
        /// `description`: an extra line shown under the comment.
        @OptionalForcibleString public var descriptionText: String?
        /// `collab_streamer_ac`: the collab streamer's display name, during a collab.
        @OptionalForcibleString public var collabStreamerName: String?
        /// `avatar_body_image_url`: the commenter's avatar image.
        @OptionalForcibleString public var avatarBodyImageURL: String?
        /// `created_at`: when it was sent, unix seconds.
        @OptionalForcibleInt public var createdAt: Int?
        /// `d`: always 1 in captures; meaning unknown.
        @OptionalForcibleInt public var d: Int?
        /// `push_image_url`: an image for push notifications, seen on the wire only.
        @OptionalForcibleString public var pushImageURL: String?
        /// `vip_rank`: read by one third-party client; not confirmed elsewhere.
        @OptionalForcibleInt public var vipRank: Int?
        /// `profile_frame_image_url`: read by one third-party client; not confirmed elsewhere.
        @OptionalForcibleString public var profileFrameImageURL: String?

        public init(
            user: User, text: String, commentID: String, speech: String? = nil, isModerator: Bool? = nil,
            isCheerleader: Bool? = nil, yellRank: YellRank? = nil, yellLevel: Int? = nil,
            linkedLiveOwnerName: String? = nil, descriptionText: String? = nil, collabStreamerName: String? = nil,
            avatarBodyImageURL: String? = nil, createdAt: Int? = nil, d: Int? = nil, pushImageURL: String? = nil,
            vipRank: Int? = nil, profileFrameImageURL: String? = nil
        ) {
            self.user = user
            self.text = text
            self.commentID = commentID
            self.speech = speech
            self.isModerator = isModerator
            self.isCheerleader = isCheerleader
            self.yellRank = yellRank
            self.yellLevel = yellLevel
            self.linkedLiveOwnerName = linkedLiveOwnerName
            self.descriptionText = descriptionText
            self.collabStreamerName = collabStreamerName
            self.avatarBodyImageURL = avatarBodyImageURL
            self.createdAt = createdAt
            self.d = d
            self.pushImageURL = pushImageURL
            self.vipRank = vipRank
            self.profileFrameImageURL = profileFrameImageURL
        }

        enum CodingKeys: String, CodingKey {
            case text = "cm"
            case commentID = "lci"
            case speech
            case isModerator = "is_moderator"
            case isCheerleader = "is_cheerleader"
            case yellRank = "yell_rank"
            case yellLevel = "yell_level"
            case linkedLiveOwnerName = "linked_live_owner_name"
            case descriptionText = "description"
            case collabStreamerName = "collab_streamer_ac"
            case avatarBodyImageURL = "avatar_body_image_url"
            case createdAt = "created_at"
            case d
            case pushImageURL = "push_image_url"
            case vipRank = "vip_rank"
            case profileFrameImageURL = "profile_frame_image_url"
        }

        public init(from decoder: any Decoder) throws {
            user = try User(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _text = try container.decode(ForcibleString.self, forKey: .text)
            _commentID = try container.decode(ForcibleString.self, forKey: .commentID)
            _speech = try container.decode(OptionalForcibleString.self, forKey: .speech)
            _isModerator = try container.decode(OptionalForcibleBool.self, forKey: .isModerator)
            _isCheerleader = try container.decode(OptionalForcibleBool.self, forKey: .isCheerleader)
            yellRank = try container.decodeIfPresent(YellRank.self, forKey: .yellRank)
            _yellLevel = try container.decode(OptionalForcibleInt.self, forKey: .yellLevel)
            _linkedLiveOwnerName = try container.decode(OptionalForcibleString.self, forKey: .linkedLiveOwnerName)
            _descriptionText = try container.decode(OptionalForcibleString.self, forKey: .descriptionText)
            _collabStreamerName = try container.decode(OptionalForcibleString.self, forKey: .collabStreamerName)
            _avatarBodyImageURL = try container.decode(OptionalForcibleString.self, forKey: .avatarBodyImageURL)
            _createdAt = try container.decode(OptionalForcibleInt.self, forKey: .createdAt)
            _d = try container.decode(OptionalForcibleInt.self, forKey: .d)
            _pushImageURL = try container.decode(OptionalForcibleString.self, forKey: .pushImageURL)
            _vipRank = try container.decode(OptionalForcibleInt.self, forKey: .vipRank)
            _profileFrameImageURL = try container.decode(OptionalForcibleString.self, forKey: .profileFrameImageURL)
        }

        public func encode(to encoder: any Encoder) throws {
            try user.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(_text, forKey: .text)
            try container.encode(_commentID, forKey: .commentID)
            try container.encode(_speech, forKey: .speech)
            try container.encode(_isModerator, forKey: .isModerator)
            try container.encode(_isCheerleader, forKey: .isCheerleader)
            try container.encodeIfPresent(yellRank, forKey: .yellRank)
            try container.encode(_yellLevel, forKey: .yellLevel)
            try container.encode(_linkedLiveOwnerName, forKey: .linkedLiveOwnerName)
            try container.encode(_descriptionText, forKey: .descriptionText)
            try container.encode(_collabStreamerName, forKey: .collabStreamerName)
            try container.encode(_avatarBodyImageURL, forKey: .avatarBodyImageURL)
            try container.encode(_createdAt, forKey: .createdAt)
            try container.encode(_d, forKey: .d)
            try container.encode(_pushImageURL, forKey: .pushImageURL)
            try container.encode(_vipRank, forKey: .vipRank)
            try container.encode(_profileFrameImageURL, forKey: .profileFrameImageURL)
        }
    }
}
