/// Something in a source that could not be replayed and was left out, while the rest still plays: a
/// malformed line of a recording, a fixture file of a folder that cannot be read. Printed
/// `file:line: message`.
public struct ReplayProblem: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The file and line at fault.
    public var location: ReplaySourceLocation
    /// What is wrong and what was expected, for a person.
    public var message: String

    /// The problem `message` at `location`.
    public init(location: ReplaySourceLocation, message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(message)" }
}
