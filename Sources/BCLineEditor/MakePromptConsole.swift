import BCConsole
import Foundation

/// The console of this process's terminal, or nil when stdin is not a terminal (no prompt then: the replay
/// serves until its sources are played, as it always has for piped or absent input).
///
/// On a terminal that can move its cursor (stdin and stderr on it, `TERM` set and not `dumb`) the prompt is
/// libedit's line editor (`LineEditor`); otherwise a plain line reader, which writes no escape sequence.
public func makePromptConsole(prompt: String, completion: some PromptCompleting) -> (any PromptConsole)? {
    guard isatty(STDIN_FILENO) == 1 else { return nil }
    let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
    if isatty(STDERR_FILENO) == 1, !term.isEmpty, term != "dumb" {
        return LineEditor(prompt: prompt, completion: completion)
    }
    return PlainLineReader()
}
