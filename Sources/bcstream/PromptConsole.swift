import BCReplay
import Foundation

/// Where `bcstream replay`'s prompt reads the lines a person types, and where every line the replay shows goes
/// while the prompt runs (its own answers and the server's activity log), so that nothing lands in the middle
/// of a line being typed.
protocol PromptConsole: Sendable {
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

/// The console of this process's terminal, or nil when stdin is not a terminal (no prompt then: the replay
/// serves until its sources are played, as it always has for piped or absent input).
///
/// On a terminal that can move its cursor (stdin and stderr on it, `TERM` set and not `dumb`) the prompt is
/// libedit's line editor (`LineEditor`); otherwise a plain line reader, which writes no escape sequence.
func makePromptConsole(prompt: String, completion: PromptCompletion) -> (any PromptConsole)? {
    guard isatty(STDIN_FILENO) == 1 else { return nil }
    let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
    if isatty(STDERR_FILENO) == 1, !term.isEmpty, term != "dumb" {
        return LineEditor(prompt: prompt, completion: completion)
    }
    return PlainLineReader()
}

/// Lines read as the terminal's own line discipline gives them (canonical mode: it echoes and handles
/// Backspace), and lines said written to stderr as they come. No prompt text, no escape sequence: what stderr
/// receives is the lines, whatever it is (a file, a pipe, a dumb terminal).
final class PlainLineReader: PromptConsole {
    let lines: AsyncStream<String>
    let keys = "Ctrl-D quits."

    init() {
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        self.lines = lines
        // A blocking read, off the cooperative pool. It stays blocked after `stop()` until the process ends: stdin
        // belongs to no one else by then.
        Thread.detachNewThread {
            while let line = readLine(strippingNewline: true) { continuation.yield(line) }
            continuation.finish()
        }
    }

    func say(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    func stop() async {}
}
