extension BCResponse {
    /// The optional keys of the app's comment class, shared by every kind it parses: comments (t=1), joins
    /// (t=3), follows (t=4) and memos (t=19). Each of those structs exposes these as its own properties
    /// (`comment.speech`, `join.isModerator`) through dynamic member lookup.
    public struct CommentAttributes: Hashable, Sendable, Codable {
        /// `speech`: the text-to-speech line, `""` or "name text".
        @OptionalForcibleString public var speech: String?
        /// `is_moderator`: the user moderates this live.
        @OptionalForcibleBool public var isModerator: Bool?
        /// `is_cheerleader`: the user is a cheerleader of this streamer.
        @OptionalForcibleBool public var isCheerleader: Bool?
        /// `yell_rank`: the user's cheer rank.
        @Forcible public var yellRank: YellRank?
        /// `yell_level`: the user's cheer level.
        @OptionalForcibleInt public var yellLevel: Int?
        /// `linked_live_owner_name`: set when the user came over from a linked live.
        @OptionalForcibleString public var linkedLiveOwnerName: String?
        /// `description`: an extra line shown under the message.
        @OptionalForcibleString public var descriptionText: String?
        /// `collab_streamer_ac`: the collab streamer's display name, during a collab.
        @OptionalForcibleString public var collabStreamerName: String?
        /// `avatar_body_image_url`: the user's avatar image.
        @OptionalForcibleString public var avatarBodyImageURL: String?
        /// `created_at`: when it was sent, unix seconds. A wire extra, not in the app's class.
        @OptionalForcibleInt public var createdAt: Int?
        /// `d`: always 1 in captures; meaning unknown. A wire extra.
        @OptionalForcibleInt public var d: Int?
        /// `push_image_url`: an image for push notifications. A wire extra.
        @OptionalForcibleString public var pushImageURL: String?
        /// `vip_rank`: read by one third-party client; not confirmed elsewhere.
        @OptionalForcibleInt public var vipRank: Int?
        /// `profile_frame_image_url`: read by one third-party client; not confirmed elsewhere.
        @OptionalForcibleString public var profileFrameImageURL: String?

        public init(
            speech: String? = nil, isModerator: Bool? = nil, isCheerleader: Bool? = nil, yellRank: YellRank? = nil,
            yellLevel: Int? = nil, linkedLiveOwnerName: String? = nil, descriptionText: String? = nil,
            collabStreamerName: String? = nil, avatarBodyImageURL: String? = nil, createdAt: Int? = nil,
            d: Int? = nil, pushImageURL: String? = nil, vipRank: Int? = nil, profileFrameImageURL: String? = nil
        ) {
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
    }
}

/// A kind parsed with the app's comment class: its shared optional keys read as the kind's own properties.
@dynamicMemberLookup
public protocol CommentClassPayload: BCPayload, UserAttributed {
    var attributes: BCResponse.CommentAttributes { get set }
}

extension CommentClassPayload {
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<BCResponse.CommentAttributes, Value>) -> Value {
        get { attributes[keyPath: keyPath] }
        set { attributes[keyPath: keyPath] = newValue }
    }
}
