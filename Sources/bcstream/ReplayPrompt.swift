import BCMessages
import BCReplay
import Foundation

/// The interactive prompt of `bcstream replay` on a terminal: a line editor in raw mode where Tab completes
/// fixture names, t numbers and kinds, Enter pushes the typed fixtures to every subscriber, `who` lists the
/// subscriptions, and Ctrl-D (or `quit`) ends the replay.
///
/// What it shows quotes fixture names read from disk and keys clients subscribed with, so every line it writes
/// goes through `TerminalText.escaped` (`say`, `prompt`), one line at a time.
struct ReplayPrompt {
    let completion: PromptCompletion?
    let server: ReplayServer

    func run() async {
        guard let completion else {
            say("no fixture folder here (Tests/Payloads), so the prompt cannot push; Ctrl-C stops the server")
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            return
        }
        say(completion.help + " `who` lists subscribers, Ctrl-D quits.")
        let terminal = RawTerminal()
        defer { terminal.restore() }
        var line = ""
        prompt(line)
        while let byte = await terminal.readByte() {
            switch byte {
            case 4 where line.isEmpty, 3:  // Ctrl-D on an empty line, Ctrl-C
                say("")
                return
            case 9:  // Tab
                let completed = completion.completedText(for: line)
                if completed.count > line.count {
                    line = completed
                } else {
                    let candidates = completion.completions(for: line)
                    if candidates.count > 1 {
                        say("")
                        say(candidates.prefix(40).joined(separator: "  "))
                    }
                }
            case 10, 13:  // Enter
                say("")
                if line.trimmingCharacters(in: .whitespaces) == "quit" { return }
                await execute(line, completion: completion)
                line = ""
            case 127, 8:  // Backspace
                if !line.isEmpty { line.removeLast() }
            case 32...126:
                line.append(Character(UnicodeScalar(byte)))
            default:
                break
            }
            prompt(line)
        }
    }

    private func execute(_ line: String, completion: PromptCompletion) async {
        if line.trimmingCharacters(in: .whitespaces) == "who" {
            let subscriptions = await server.subscriptions
            if subscriptions.isEmpty { say("nobody is subscribed yet") }
            for (key, count) in subscriptions.sorted(by: { $0.key < $1.key }) {
                say("\(TerminalText.excerpt(key)): \(count) subscriber(s)")  // a key is what a client sent
            }
            return
        }
        switch completion.resolve(line) {
        case .empty:
            break
        case .noMatch(let message):
            say(message)
        case .push(let selection):
            let subscribers = await server.subscriptions.values.reduce(0, +)
            guard subscribers > 0 else {
                say("nobody is subscribed yet: connect a client (SUB<TAB><key>) to ws://\(server.host):\(server.port)/")
                return
            }
            await server.push(selection.items)
            say("pushed \(selection) to \(subscribers) subscriber\(subscribers == 1 ? "" : "s")")
        }
    }

    private func prompt(_ line: String) {
        FileHandle.standardError.write(Data("\r\u{1B}[Kreplay> \(TerminalText.escaped(line))".utf8))
    }

    /// Writes `text` as one line, escaped.
    private func say(_ text: String) {
        FileHandle.standardError.write(Data("\r\u{1B}[K\(TerminalText.escaped(text))\n".utf8))
    }
}

/// The terminal in raw mode (no echo, no line buffering) while the prompt runs; restored afterwards.
final class RawTerminal: Sendable {
    private let saved: termios?

    init() {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else {
            saved = nil
            return
        }
        saved = original
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
    }

    /// The next byte typed, or nil at the end of input. Blocking reads run off the cooperative pool.
    func readByte() async -> UInt8? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var byte: UInt8 = 0
                continuation.resume(returning: read(STDIN_FILENO, &byte, 1) == 1 ? byte : nil)
            }
        }
    }

    func restore() {
        guard var saved else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }
}
