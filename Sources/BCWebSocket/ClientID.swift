/// Identifies one client accepted by a `WebSocketServer`, from `.connected` to `.disconnected`.
/// Never reused within the process.
public struct ClientID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: ClientID, rhs: ClientID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "client#\(rawValue)" }
}
