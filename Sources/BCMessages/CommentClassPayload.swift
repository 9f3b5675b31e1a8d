/// A kind parsed with the app's comment class: its shared optional keys read as the kind's own properties.
@dynamicMemberLookup
public protocol CommentClassPayload: BCPayload, UserAttributed {
    /// The comment class's shared optional keys (`is_moderator`, `yell_rank`, `speech`, …).
    var attributes: BCResponse.CommentAttributes { get set }
}

extension CommentClassPayload {
    /// Reads and writes a shared key as if it were the kind's own property: `comment.isModerator`.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<BCResponse.CommentAttributes, Value>) -> Value {
        get { attributes[keyPath: keyPath] }
        set { attributes[keyPath: keyPath] = newValue }
    }
}
