import BCMessages

/// What the fleet could not start (NATS unreachable, a metrics port in use), in the user's terms. Its text quotes
/// user input and the system: it is escaped and bounded here, safe for a terminal.
public struct FleetFailure: Error, CustomStringConvertible {
    /// What went wrong, one line.
    public let description: String

    init(_ text: String) {
        description = TerminalText.escaped(TerminalText.excerpt(text, limit: 1000))
    }
}
