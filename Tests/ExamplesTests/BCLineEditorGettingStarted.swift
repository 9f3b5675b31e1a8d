import BCConsole
import BCLineEditor
import Testing

/// BCLineEditor's getting-started article, its example as printed there. Compiled only: it reads lines from a
/// person at a terminal, and `swift test` may run on one, where it would wait for them.
struct BCLineEditorGettingStarted {
    func prompt() async {
        // >>> printed in Sources/BCLineEditor/BCLineEditor.docc/GettingStarted.md
        struct Words: PromptCompleting {
            let all = ["gift", "comment", "join"]
            func completions(for typed: String) -> [String] { all.filter { $0.hasPrefix(typed) } }
            func completedText(for typed: String) -> String {
                let found = completions(for: typed)
                return found.count == 1 ? found[0] : typed
            }
        }

        if let console = makePromptConsole(prompt: "> ", completion: Words()) {
            console.say("type a word; " + console.keys)
            for await line in console.lines {
                if line == "quit" { break }
                console.say("you typed \(line)")
            }
            await console.stop()
        }
        // <<< printed
    }
}
