import BCConsole
import BCMessages

/// A command that could not do its work (a file that is not there, a port in use), as opposed to one that was
/// called wrong: ArgumentParser prints it as "Error: …" and exits 1, without the usage text that a
/// `ValidationError` (exit 64) would add. Its text quotes user input and the system: it is escaped here.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ text: String) {
        description = reportLine(text)
    }
}
