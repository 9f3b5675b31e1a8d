import BCMessages
import BCReplay
import CLibEdit
import Foundation
import Synchronization

/// The prompt on a terminal: libedit's line editor (its readline-compatible API, callback interface), with
/// history (Up, Down), the usual editing keys (Ctrl-A, Ctrl-E, Ctrl-U, Ctrl-W, Left, Right…) and Tab completing
/// through `PromptCompletion`. Lines said while the person types are printed above the prompt, which is then
/// drawn again with the text typed so far: the typed line is never cut by a log line.
///
/// Threading. libedit's readline layer is C globals without any lock, so every libedit call is made on one
/// thread, the editor thread this class starts, and nowhere else. That thread waits (`poll`) for stdin or for a
/// byte on a wake-up pipe: when stdin is readable it calls `rl_callback_read_char`, which reads what was typed
/// and calls back into Swift (`handleLine`, `completeWord`) on that same thread; when woken it prints the lines
/// other threads queued with `say` above the prompt, or leaves when `stop` asked it to. The C callbacks cannot
/// capture anything, so what they need (the prompt, the completion, where typed lines go) is in
/// `editorCallbackState`, a global behind a `Mutex`: set before the editor thread starts and cleared when it
/// ends, read by the callbacks, never held across a libedit call. The queue of lines and the stop request are
/// in `state`, another `Mutex`, which other threads only hold to append a line or read a flag.
final class LineEditor: PromptConsole {
    let lines: AsyncStream<String>
    let keys = "Up recalls a line, Ctrl-U clears it, Ctrl-D quits."

    private struct State {
        /// Lines said since the editor thread last woke, to print above the prompt.
        var pending: [String] = []
        /// The editor thread owns the terminal: `say` queues. Once false, `say` writes to stderr directly.
        var running = true
        var stopRequested = false
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// Starts the editor thread, which shows `prompt` at once.
    init(prompt: String, completion: PromptCompletion) {
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        self.lines = lines
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 { ends = [-1, -1] }
        for end in ends where end >= 0 {
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        TerminalRestorer.save()
        let installed = editorCallbackState.withLock { current in
            guard current == nil else { return false }
            current = EditorCallbackState(prompt: prompt, completion: completion, typed: continuation)
            return true
        }
        precondition(installed, "one line editor at a time: libedit's readline layer is a single global editor")
        Thread.detachNewThread { [self] in runEditor(prompt: prompt) }
    }

    func say(_ line: String) {
        let queued = state.withLock { state in
            guard state.running else { return false }
            state.pending.append(line)
            return true
        }
        if queued { wake() } else { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    /// Erases the prompt, gives the terminal back, and returns once the editor thread has left libedit. Should
    /// libedit be waiting inside a key (a half-typed escape sequence, its "display all possibilities?" question),
    /// the terminal is restored after a second without waiting for it.
    func stop() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let stopped = state.withLock { state in
                guard state.running else { return true }
                state.stopRequested = true
                state.stopWaiters.append(waiter)
                return false
            }
            guard !stopped else { return waiter.resume() }
            wake()
            Task.detached { [self] in
                try? await Task.sleep(for: .seconds(1))
                abandonEditor()
            }
        }
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)  // a full pipe already holds a wake-up
    }

    // MARK: - The editor thread

    private func runEditor(prompt: String) {
        // libedit reads and draws multibyte text per LC_CTYPE, which a Swift program leaves at "C".
        if let locale = setlocale(LC_CTYPE, ""), ["C", "POSIX"].contains(String(cString: locale)) {
            _ = setlocale(LC_CTYPE, "C.UTF-8")
        }
        bc_edit_configure { text, _, _ in completeWord(text) }
        rl_callback_handler_install(prompt) { handleLine($0) }
        var columns = bc_edit_terminal_columns(STDERR_FILENO)
        var inputOpen = true
        while inputOpen {
            var waits = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                         pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            if poll(&waits, 2, -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            if waits[1].revents != 0 { drainWakeUps() }
            let (said, stopRequested) = state.withLock { state in
                defer { state.pending = [] }
                return (state.pending, state.stopRequested)
            }
            let nowColumns = bc_edit_terminal_columns(STDERR_FILENO)
            if nowColumns != columns {
                // The terminal was resized: libedit learns the new width, and the prompt is drawn again for it.
                columns = nowColumns
                rl_resize_terminal()
                printAbovePrompt(said)
            } else if !said.isEmpty {
                printAbovePrompt(said)
            }
            if stopRequested { break }
            let input = waits[0].revents
            if input & Int16(POLLIN) != 0 {
                rl_callback_read_char()
                if editorCallbackState.withLock({ $0?.inputEnded ?? true }) { inputOpen = false }
            } else if input & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                inputOpen = false  // the terminal is gone
            }
        }
        // Leave the screen as it was before the prompt: the line being edited is erased, the terminal's own
        // settings come back.
        bc_edit_write(erasePrompt())
        rl_callback_handler_remove()
        TerminalRestorer.restore()
        let typed = editorCallbackState.withLock { current in
            defer { current = nil }
            return current?.typed
        }
        typed?.finish()
        let (said, waiters) = state.withLock { state in
            state.running = false
            defer { state.pending = []; state.stopWaiters = [] }
            return (state.pending, state.stopWaiters)
        }
        if !said.isEmpty { FileHandle.standardError.write(Data(said.map { $0 + "\n" }.joined().utf8)) }
        for waiter in waiters { waiter.resume() }
    }

    /// Lets the waiters of `stop` go and restores the terminal when the editor thread did not come back in time:
    /// it is inside libedit, waiting for the rest of a key. It leaves whenever that key comes.
    private func abandonEditor() {
        let (said, waiters) = state.withLock { state in
            guard state.running else { return ([String](), [CheckedContinuation<Void, Never>]()) }
            state.running = false
            defer { state.pending = []; state.stopWaiters = [] }
            return (state.pending, state.stopWaiters)
        }
        guard !waiters.isEmpty else { return }
        TerminalRestorer.restore()
        FileHandle.standardError.write(Data(("\n" + said.map { $0 + "\n" }.joined()).utf8))
        for waiter in waiters { waiter.resume() }
    }

    private func drainWakeUps() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &bytes, bytes.count) > 0 {}
    }

    /// Erases the prompt and the text typed, prints `said` in its place, and lets libedit draw the prompt and
    /// the text again below, the cursor where it was.
    private func printAbovePrompt(_ said: [String]) {
        bc_edit_write(erasePrompt() + said.map { $0 + "\n" }.joined())
        rl_forced_update_display()
    }

    /// The escape sequence that takes the cursor to the start of the prompt and clears from there to the end of
    /// the screen. libedit does not expose where it drew, so the rows above the cursor are counted the way
    /// libedit lays the line out (`PromptLayout`).
    private func erasePrompt() -> String {
        var columns: Int32 = 0
        rl_get_screen_size(nil, &columns)
        var typedBeforeCursor = ""
        if let buffer = bc_edit_line_buffer() {
            let point = Int(max(0, bc_edit_point()))
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self),
                                            count: strnlen(buffer, point))
            typedBeforeCursor = String(decoding: bytes, as: UTF8.self)
        }
        let prompt = editorCallbackState.withLock { $0?.prompt } ?? ""
        let rows = PromptLayout(columns: Int(columns)).row(after: prompt + typedBeforeCursor)
        return "\r" + (rows > 0 ? "\u{1B}[\(rows)A" : "") + "\u{1B}[J"
    }
}

/// Where libedit puts the cursor for a line it draws from the first column: each character takes the columns
/// libedit shows it in (a control as `^X`, a character the locale cannot print as `\U+XXXX`, a tab up to the
/// next multiple of 8), and a character that does not fit on the row goes to the next one.
struct PromptLayout {
    let columns: Int

    init(columns: Int) {
        self.columns = columns > 0 ? columns : 80
    }

    /// The row (0 for the first) the cursor is on after `text`.
    func row(after text: String) -> Int {
        var row = 0, column = 0
        for scalar in text.unicodeScalars {
            let width: Int
            switch scalar.value {
            case 0x09: width = 8 - column % 8
            case 0..<0x20, 0x7F: width = 2
            default:
                let printed = Int(bc_edit_column_width(scalar.value))
                width = printed >= 0 ? printed : (scalar.value > 0xFFFF ? 8 : 7)
            }
            if column + width > columns {
                row += 1
                column = 0
            }
            column += width
            if column >= columns {
                row += 1
                column = 0
            }
        }
        return row
    }
}

// MARK: - What libedit's C callbacks reach

/// What the C callbacks of the editor thread need, for the life of one `LineEditor`.
private struct EditorCallbackState: Sendable {
    let prompt: String
    let completion: PromptCompletion
    /// Where typed lines go.
    let typed: AsyncStream<String>.Continuation
    /// Ctrl-D on an empty line was typed: libedit has left the editor and the prompt is not shown again.
    var inputEnded = false
    /// The line history last received, so that a line entered twice in a row is recalled once.
    var lastHistoryLine: String?
}

/// Set by `LineEditor.init` before its editor thread starts, cleared by that thread when it leaves; read only by
/// callbacks that run on that thread. A global because C function pointers carry no context.
private let editorCallbackState = Mutex<EditorCallbackState?>(nil)

/// libedit's line handler: a line was entered (Enter) or the input ended (nil, Ctrl-D on an empty line). Runs on
/// the editor thread, inside `rl_callback_read_char`. The line is ours to free.
private func handleLine(_ line: UnsafeMutablePointer<CChar>?) {
    guard let line else {
        let typed = editorCallbackState.withLock { current in
            current?.inputEnded = true
            return current?.typed
        }
        typed?.finish()
        return
    }
    let text = String(cString: line)
    free(line)
    let word = text.trimmingCharacters(in: .whitespaces)
    let (session, isNew) = editorCallbackState.withLock { current in
        let isNew = !word.isEmpty && current?.lastHistoryLine != word
        if isNew { current?.lastHistoryLine = word }
        return (current, isNew)
    }
    guard let session else { return }
    if isNew { add_history(word) }
    session.typed.yield(text)
    // After a line libedit leaves the editor (no prompt, the terminal's own line mode): installing the handler
    // again shows a fresh prompt and goes on editing.
    rl_callback_handler_install(session.prompt) { handleLine($0) }
}

/// libedit's completion function (Tab): the matches for the word before the cursor, as readline wants them, a
/// `malloc`ed array that libedit frees: what replaces the word first, then the candidates, then NULL. Nil when
/// nothing completes the word (libedit beeps). Runs on the editor thread, inside `rl_callback_read_char`.
private func completeWord(_ text: UnsafePointer<CChar>?) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    bc_edit_completion_is_over()
    guard let text, let completion = editorCallbackState.withLock({ $0?.completion }) else { return nil }
    let typed = String(cString: text)
    let candidates = completion.completions(for: typed)
    guard !candidates.isEmpty else { return nil }
    let completed = completion.completedText(for: typed)
    let replacement = completed.count >= typed.count ? completed : typed
    let words = [replacement] + candidates
    guard let raw = malloc((words.count + 1) * MemoryLayout<UnsafeMutablePointer<CChar>?>.stride) else { return nil }
    let matches = raw.bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: words.count + 1)
    for (index, word) in words.enumerated() { matches[index] = strdup(word) }
    matches[words.count] = nil
    return matches
}

// MARK: - The terminal's settings

/// The terminal's settings as they were before the editor, put back when it stops, and at exit should the
/// process end while the editor runs (a second Ctrl-C exits at once): a shell must not be left in raw mode.
private enum TerminalRestorer {
    private static let saved = Mutex<termios?>(nil)
    private static let registered = Mutex(false)

    static func save() {
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return }
        saved.withLock { $0 = settings }
        let first = registered.withLock { registered in
            defer { registered = true }
            return !registered
        }
        if first { atexit { TerminalRestorer.restore() } }
    }

    static func restore() {
        guard var settings = saved.withLock({ $0 }) else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    }
}
