import Foundation

/// Writes one line to stdout at once, unbuffered: a live session's output must reach a pipe (`| jq`, a
/// test reading the replay URL) as it happens, not when a buffer fills.
public func writeLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Columns of the terminal on stdout, or nil when stdout is a pipe or a file; read once.
private let stdoutColumns = TerminalColumns.width(of: STDOUT_FILENO)

/// Writes a message line (`MessageFormatter`'s text) to stdout. On a terminal a line wider than it is cut to
/// the width, with "…": one message is one row, never wrapped into the next (the whole text is in a pipe, a
/// file, `--format ndjson` and `--record`). Elsewhere the line goes out whole.
func writeMessageLine(_ line: String) {
    guard let columns = stdoutColumns else {
        writeLine(line)
        return
    }
    writeLine(TerminalColumns.fitted(line, room: max(10, columns - 1)))
}
