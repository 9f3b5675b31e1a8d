/// Where `bcstream replay`'s prompt reads the lines a person types, and where every line the replay shows goes
/// while the prompt runs (its own answers and the server's activity log), so that nothing lands in the middle
/// of a line being typed.
public protocol PromptConsole: Sendable {
    /// The lines typed, without their line break; finished at the end of input (Ctrl-D on an empty line) or
    /// when `stop()` was called.
    var lines: AsyncStream<String> { get }
    /// The keys worth knowing, for the first line the prompt says.
    var keys: String { get }
    /// Shows `line` to the person, on a line of its own. It must be safe to print already (escaped, no line
    /// break): the console prints it as it is.
    func say(_ line: String)
    /// Stops reading and gives the terminal back as it was. Lines said afterwards go straight to stderr.
    func stop() async
}
