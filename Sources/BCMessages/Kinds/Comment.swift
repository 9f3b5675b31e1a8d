extension BCResponse {
    /// t=1 `LiveCommentReceived`: a viewer's comment.
    ///
    /// Captured. Wire quirks: `lci` comes as a string or a number; `is_moderator` as 0/1. The comment class's
    /// optional keys (`speech`, `is_moderator`, `yell_rank`, …) read as properties: `comment.isModerator`.
    public struct Comment: CommentClassPayload {
        /// Who commented: `u`, `ac`, `iurl`, `burl`.
        public var user: User
        /// `cm`: the comment text.
        @ForcibleString public var text: String
        /// `lci`: the live comment id (string or number on the wire).
        @ForcibleString public var commentID: String
        /// The comment class's optional keys.
        public var attributes: CommentAttributes

        public init(user: User, text: String, commentID: String, attributes: CommentAttributes = .init()) {
            self.user = user
            self.text = text
            self.commentID = commentID
            self.attributes = attributes
        }

        enum CodingKeys: String, CodingKey {
            case text = "cm"
            case commentID = "lci"
        }

        public init(from decoder: any Decoder) throws {
            user = try User(from: decoder)
            attributes = try CommentAttributes(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _text = try container.decode(ForcibleString.self, forKey: .text)
            _commentID = try container.decode(ForcibleString.self, forKey: .commentID)
        }

        public func encode(to encoder: any Encoder) throws {
            try user.encode(to: encoder)
            try attributes.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(_text, forKey: .text)
            try container.encode(_commentID, forKey: .commentID)
        }
    }
}
