import Foundation
import Synchronization

/// The terminal's settings as they were before the editor, put back when it stops, and at exit should the
/// process end while the editor runs (a second Ctrl-C exits at once): a shell must not be left in raw mode.
enum TerminalRestorer {
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
