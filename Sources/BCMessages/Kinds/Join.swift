extension BCResponse {
    /// t=3 `LiveJoined`: a viewer entered the live.
    ///
    /// Captured. The app parses it with its comment model, so every comment key may appear (read them as
    /// properties: `join.speech`); the wire adds `online_viewer_num`. Wire quirks: `lci` is `0` as a number;
    /// `is_moderator` and `d` as 0/1.
    public struct Join: CommentClassPayload {
        /// Who entered: `u`, `ac`, `iurl`, `burl`.
        public var user: User
        /// `cm`: the comment text; absent from captured joins.
        @OptionalForcibleString public var text: String?
        /// `lci`: the live comment id, `0` (a number) in captured joins.
        @ForcibleString public var commentID: String
        /// `online_viewer_num`: viewers watching now, this viewer included.
        @OptionalForcibleInt public var onlineViewerCount: Int?
        /// The comment class's optional keys (`speech` is "<name>が入室しました").
        public var attributes: CommentAttributes

        public init(user: User, text: String? = nil, commentID: String, onlineViewerCount: Int? = nil,
                    attributes: CommentAttributes = .init()) {
            self.user = user
            self.text = text
            self.commentID = commentID
            self.onlineViewerCount = onlineViewerCount
            self.attributes = attributes
        }

        enum CodingKeys: String, CodingKey {
            case text = "cm"
            case commentID = "lci"
            case onlineViewerCount = "online_viewer_num"
        }

        public init(from decoder: any Decoder) throws {
            user = try User(from: decoder)
            attributes = try CommentAttributes(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _text = try container.decode(OptionalForcibleString.self, forKey: .text)
            _commentID = try container.decode(ForcibleString.self, forKey: .commentID)
            _onlineViewerCount = try container.decode(OptionalForcibleInt.self, forKey: .onlineViewerCount)
        }

        public func encode(to encoder: any Encoder) throws {
            try user.encode(to: encoder)
            try attributes.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(_text, forKey: .text)
            try container.encode(_commentID, forKey: .commentID)
            try container.encode(_onlineViewerCount, forKey: .onlineViewerCount)
        }
    }
}
