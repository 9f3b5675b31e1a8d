/// `collab_type`: what kind of collab (co-stream) a request or invite is for. Unknown types are kept, never an
/// error.
public enum CollabType: Hashable, Sendable {
    /// 1: a voice call with the streamer.
    case call
    /// 2: a co-stream, both streamers live.
    case live
    /// A type the model does not know yet.
    case unrecognized(Int)
}

extension CollabType: OpenEnum {
    public init(rawValue: Int) {
        switch rawValue {
        case 1: self = .call
        case 2: self = .live
        default: self = .unrecognized(rawValue)
        }
    }

    public var rawValue: Int {
        switch self {
        case .call: 1
        case .live: 2
        case .unrecognized(let value): value
        }
    }
}
