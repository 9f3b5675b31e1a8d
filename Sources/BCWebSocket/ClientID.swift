/// Identifies one client accepted by a `WebSocketServer`, from `.connected` to `.disconnected`.
/// Never reused within the process.
public struct ClientID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The number that tells the client apart, as the server assigned it; `description` shows it as `client#<n>`.
    public let rawValue: UInt64

    /// The client numbered `rawValue`.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: ClientID, rhs: ClientID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "client#\(rawValue)" }
}
