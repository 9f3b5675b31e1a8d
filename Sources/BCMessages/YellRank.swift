/// `yell_rank`: a viewer's cheer (yell) rank. Unknown ranks are kept, never an error.
public enum YellRank: Hashable, Sendable {
    /// No rank (`0`).
    case none
    /// Cheer Rookie 1 (`1`).
    case cheerRookie1
    /// Cheer Rookie 2 (`2`).
    case cheerRookie2
    /// Cheer Leader 1 (`3`).
    case cheerLeader1
    /// Cheer Leader 2 (`4`).
    case cheerLeader2
    /// Cheer Leader 3 (`5`).
    case cheerLeader3
    /// Cheer Leader 4 (`6`).
    case cheerLeader4
    /// Cheer Leader Gold (`7`).
    case cheerLeaderGold
    /// Cheer Leader Platinum (`8`).
    case cheerLeaderPlatinum
    /// Cheer Leader Diamond (`9`).
    case cheerLeaderDiamond
    /// Cheer Legend (`10`).
    case cheerLegend
    /// A rank the model does not know yet.
    case unrecognized(Int)
}

extension YellRank: OpenEnum {
    public init(rawValue: Int) {
        switch rawValue {
        case 0: self = .none
        case 1: self = .cheerRookie1
        case 2: self = .cheerRookie2
        case 3: self = .cheerLeader1
        case 4: self = .cheerLeader2
        case 5: self = .cheerLeader3
        case 6: self = .cheerLeader4
        case 7: self = .cheerLeaderGold
        case 8: self = .cheerLeaderPlatinum
        case 9: self = .cheerLeaderDiamond
        case 10: self = .cheerLegend
        default: self = .unrecognized(rawValue)
        }
    }

    public var rawValue: Int {
        switch self {
        case .none: 0
        case .cheerRookie1: 1
        case .cheerRookie2: 2
        case .cheerLeader1: 3
        case .cheerLeader2: 4
        case .cheerLeader3: 5
        case .cheerLeader4: 6
        case .cheerLeaderGold: 7
        case .cheerLeaderPlatinum: 8
        case .cheerLeaderDiamond: 9
        case .cheerLegend: 10
        case .unrecognized(let value): value
        }
    }
}
