import BCMessages
import Foundation

/// Writes one line to stdout at once, unbuffered: a live session's output must reach a pipe (`| jq`, a
/// test reading the replay URL) as it happens, not when a buffer fills.
func writeLine(_ line: String) {
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

/// A line of a report for a person (stderr, a text-format error) as it may be printed: every control shown
/// escaped (`TerminalText.escaped`), since reports quote text from the network, clients and the disk, and at
/// most `limit` Unicode scalars. The quoted parts are excerpts already; the limit also stops a quote of a few
/// characters that is a megabyte long (one character can hold any number of combining marks).
func reportLine(_ text: String, limit: Int = reportLimit) -> String {
    TerminalText.escaped(TerminalText.excerpt(text, limit: limit))
}

/// The longest report line `reportLine` keeps, in Unicode scalars: far more than any report with its excerpts.
let reportLimit = 1000
