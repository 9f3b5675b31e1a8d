/// `type` of a gift-gacha message (t=62): a normal draw or one during fever time. Unknown types are kept,
/// never an error.
public enum GiftGachaType: Hashable, Sendable {
    /// 1: an ordinary gacha.
    case normal
    /// 2: a gacha during fever time.
    case fever
    /// A type the model does not know yet.
    case unrecognized(Int)
}

extension GiftGachaType: OpenEnum {
    public init(rawValue: Int) {
        switch rawValue {
        case 1: self = .normal
        case 2: self = .fever
        default: self = .unrecognized(rawValue)
        }
    }

    /// A switch, never a lookup with `==`: `==` on a `RawRepresentable` compares raw values and would recurse.
    public var rawValue: Int {
        switch self {
        case .normal: 1
        case .fever: 2
        case .unrecognized(let value): value
        }
    }
}
