/// Where something to replay comes from: a file as the user named it, and a 1-based line. A fixture is line 1
/// of its file; a recorded frame is the line of its recording. Printed `file:line`, the form editors and
/// terminals turn into a link.
public struct ReplaySourceLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The file's path as the user gave it (or as found in the default folder), not made absolute.
    public var file: String
    /// The line, counted from 1.
    public var line: Int

    /// Line `line`, counted from 1, of `file`.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    public var description: String { "\(file):\(line)" }
}
