extension BCResponse {
    /// t=19 `MemoBroadcast`: a memo or notice shown as a comment (meaning guessed from the name).
    ///
    /// From the 2022 app's model, which parses it with its comment class; no capture seen. The user block and `cm`
    /// are required, like a comment; every other comment key is optional (read them as properties: `memo.speech`).
    public struct Memo: CommentClassPayload {
        /// Who the memo is shown as: `u`, `ac`, `iurl`, `burl`.
        public var user: User
        /// `cm`: the memo text shown as a comment.
        @ForcibleString public var text: String
        /// `lci`: the live comment id (string or number on the wire).
        @OptionalForcibleString public var commentID: String?
        /// The comment class's optional keys.
        public var attributes: CommentAttributes

        public init(user: User, text: String, commentID: String? = nil, attributes: CommentAttributes = .init()) {
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
            _commentID = try container.decode(OptionalForcibleString.self, forKey: .commentID)
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
