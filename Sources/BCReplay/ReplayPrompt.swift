import BCConsole
import BCMessages
import Foundation

/// The interactive prompt of `bcstream replay` on a terminal: each line typed is a fixture name, a t or a kind
/// to push to every subscriber (Tab completes), `who` lists the subscriptions, and Ctrl-D (or `quit`) ends the
/// replay. The line editing itself (history, editing keys, completion, log lines kept above the prompt) is the
/// console's (`LineEditor` on a terminal).
///
/// What it shows quotes fixture names read from disk and keys clients subscribed with, so every line it writes
/// goes through `TerminalText.escaped` (`say`), one line at a time.
public struct ReplayPrompt: Sendable {
    /// The words the prompt knows: fixtures, ts and kinds.
    public let completion: PromptCompletion
    /// Where what is typed is pushed.
    public let server: ReplayServer
    /// Where lines are read and shown.
    public let console: any PromptConsole

    /// A prompt that pushes what `completion` resolves to `server`'s subscribers, through `console`.
    public init(completion: PromptCompletion, server: ReplayServer, console: any PromptConsole) {
        self.completion = completion
        self.server = server
        self.console = console
    }

    /// Reads lines until the input ends or `quit`, and does what each says.
    public func run() async {
        say(completion.help + " `who` lists subscribers; " + console.keys)
        for await line in console.lines {
            if line.trimmingCharacters(in: .whitespaces) == "quit" { return }
            await execute(line)
        }
    }

    private func execute(_ line: String) async {
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

    /// Shows `text` escaped: one line, or on a terminal as many rows as it needs, broken between words.
    private func say(_ text: String) {
        let text = TerminalText.escaped(text)
        // On a terminal, a line longer than it is broken between words (the help is some 170 columns), never
        // wrapped by the terminal in the middle of one.
        guard let columns = TerminalColumns.width(of: STDERR_FILENO) else {
            console.say(text)
            return
        }
        for row in TerminalColumns.wrapped(text, width: max(10, columns - 1), indent: 0) { console.say(row) }
    }
}
