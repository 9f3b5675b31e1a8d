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
