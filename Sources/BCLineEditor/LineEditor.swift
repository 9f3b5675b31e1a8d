import BCConsole
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
public final class LineEditor: PromptConsole {
    public let lines: AsyncStream<String>
    public let keys = "Up recalls a line, Ctrl-U clears it, Ctrl-D quits."

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
    public init(prompt: String, completion: some PromptCompleting) {
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

    public func say(_ line: String) {
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
    public func stop() async {
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
