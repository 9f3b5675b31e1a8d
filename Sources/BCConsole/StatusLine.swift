import BCMessages
import Foundation
import Synchronization

/// The status shown on stderr: on a terminal one line rewritten in place, with notes printed above it;
/// elsewhere (a log, CI) only the notes, one per line.
///
/// Notes go through `reportLine`: they quote what the server sent (unknown commands, `ERR` text, the key of a
/// `MSG` for another channel, close reasons), which must neither break the line nor drive the terminal. The
/// status and the final counts are escaped too, but never cut.
///
/// The status line never shares a row with anything: it is erased before each note and before each line written
/// to stdout (`clear()`), cut to the terminal's width so it never wraps, and redrawn at most ten times a second.
public final class StatusLine: Sendable {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private struct Shown {
        var visible = false
        var lastDrawn: ContinuousClock.Instant?
    }
    private let shown = Mutex(Shown())

    /// A status line for this process's stderr; nothing is drawn until `show`.
    public init() {}

    /// Prints `text` on a line of its own (through `reportLine`), the status line erased first.
    public func note(_ text: String) {
        let text = reportLine(text)
        clear()
        write("\(text)\n")
    }

    /// Erases the status line, so that what follows (a message on stdout, a note) starts at column 0.
    func clear() {
        guard isTerminal else { return }
        let visible = shown.withLock { shown in
            defer { shown.visible = false; shown.lastDrawn = nil }
            return shown.visible
        }
        if visible { write("\r\u{1B}[K") }
    }

    /// Whether `show` would draw now (on a terminal, the last drawing 100 ms old or none shown): lets a caller
    /// skip building the status text for every message.
    var isDue: Bool {
        guard isTerminal else { return false }
        let now = ContinuousClock.now
        return shown.withLock { shown in
            guard shown.visible, let last = shown.lastDrawn else { return true }
            return now - last >= .milliseconds(100)
        }
    }

    func show(_ text: String) {
        guard isTerminal else { return }
        let now = ContinuousClock.now
        let draw = shown.withLock { shown in
            if let last = shown.lastDrawn, shown.visible, now - last < .milliseconds(100) { return false }
            shown.visible = true
            shown.lastDrawn = now
            return true
        }
        if draw { write("\r\u{1B}[K\(Self.fitted(TerminalText.escaped(text)))") }
    }

    /// `text` cut to one column less than the terminal's width (a line filling the last column wraps on some
    /// terminals), with "…" where it was cut.
    private static func fitted(_ text: String) -> String {
        TerminalColumns.fitted(text, room: max(10, (TerminalColumns.width(of: STDERR_FILENO) ?? 80) - 1))
    }

    /// The last words (the final counts): never cut. On a terminal a count list longer than a row goes on the
    /// next rows, broken between its items and aligned under the first ("20 messages: 5 comment, …").
    func finish(_ text: String) {
        let text = TerminalText.escaped(text)
        clear()
        guard isTerminal, let columns = TerminalColumns.width(of: STDERR_FILENO) else {
            write("\(text)\n")
            return
        }
        let head = text.range(of: ": ").map { TerminalColumns.cells(text[..<$0.upperBound]) } ?? 2
        write(TerminalColumns.wrapped(text, width: columns - 1, indent: head).joined(separator: "\n") + "\n")
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
