import BCConsole
@testable import BCLineEditor
import CLibEdit
import Foundation
import Testing

/// A completion that answers what it is told to, so that the test sees what the bridge makes of the answer.
private struct Answer: PromptCompleting {
    let candidates: [String]
    let completed: String
    func completions(for typed: String) -> [String] { candidates }
    func completedText(for typed: String) -> String { completed }
}

/// libedit's side of the prompt without a terminal: the C callbacks `LineEditor` installs, called as libedit
/// calls them. They read the one global `editorCallbackState`, so these tests run one at a time and leave it
/// empty, as a `LineEditor` that stopped does.
@Suite("libedit's callbacks", .serialized)
struct EditorCallbackTests {
    /// Runs `body` with an editor's state installed (the prompt "> ", `completion`), then empties the state.
    private func withEditorState<Result>(completion: some PromptCompleting = Answer(candidates: [], completed: ""),
                                         _ body: (AsyncStream<String>) throws -> Result) rethrows -> Result {
        let (typed, continuation) = AsyncStream.makeStream(of: String.self)
        let installed = editorCallbackState.withLock { current in
            guard current == nil else { return false }
            current = EditorCallbackState(prompt: "> ", completion: completion, typed: continuation)
            return true
        }
        precondition(installed, "an editor's state was left installed")
        defer { editorCallbackState.withLock { $0 = nil } }
        return try body(typed)
    }

    /// What `completeWord` handed libedit, freed as libedit frees it; nil for no matches.
    private func complete(_ typed: String) -> [String]? {
        guard let matches = typed.withCString({ completeWord($0) }) else { return nil }
        var words: [String] = []
        var index = 0
        while let word = matches[index] {
            words.append(String(cString: word))
            free(word)
            index += 1
        }
        free(matches)
        return words
    }

    @Test("Tab: the word is replaced by the completed text, then the candidates follow, as readline's array")
    func completionIsReadlinesArray() {
        let words = withEditorState(completion: Answer(candidates: ["gift", "giftRanking"], completed: "gift")) { _ in
            complete("gi")
        }
        #expect(words == ["gift", "gift", "giftRanking"])
    }

    @Test("a completed text shorter than the word leaves the word as typed")
    func aShorterCompletionKeepsTheWord() {
        let words = withEditorState(completion: Answer(candidates: ["gift"], completed: "g")) { _ in
            complete("GIFT")
        }
        #expect(words == ["GIFT", "gift"])
    }

    @Test("nothing completes the word: no matches (libedit beeps and leaves the line)")
    func noCandidateIsNoMatch() {
        let words = withEditorState(completion: Answer(candidates: [], completed: "zz")) { _ in complete("zz") }
        #expect(words == nil)
    }

    @Test("no editor running: nothing completes")
    func noEditorNoCompletion() {
        #expect(complete("gi") == nil)
    }

    /// libedit sets the terminal up when it starts; on a person's terminal that would disturb it.
    @Test("lines go on as typed; history keeps each trimmed, once when entered twice in a row, no blank one",
          .enabled(if: isatty(STDIN_FILENO) != 1, "stdin is a terminal, which libedit would set up"))
    func linesAndHistory() async {
        clear_history()
        defer {
            rl_callback_handler_remove()
            clear_history()
        }
        let typed = withEditorState { typed in
            bc_edit_configure { text, _, _ in completeWord(text) }  // as the editor thread starts: no signals caught
            for line in ["  gift ", "gift", "   ", "116", "gift"] { handleLine(strdup(line)) }
            handleLine(nil)  // Ctrl-D on an empty line
            #expect(editorCallbackState.withLock { $0?.inputEnded } == true)
            return typed
        }
        var lines: [String] = []
        for await line in typed { lines.append(line) }  // ends: the input ended
        #expect(lines == ["  gift ", "gift", "   ", "116", "gift"])
        #expect(history() == ["gift", "116", "gift"])
    }

    /// The lines of libedit's history, oldest first.
    private func history() -> [String] {
        guard let entries = history_list() else { return [] }
        var lines: [String] = []
        var index = 0
        while let entry = entries[index] {
            lines.append(String(cString: entry.pointee.line))
            index += 1
        }
        return lines
    }
}

@Suite("The prompt's console")
struct PromptConsoleChoiceTests {
    @Test("stdin not a terminal: no prompt at all, so a piped replay serves until its sources are played",
          .enabled(if: isatty(STDIN_FILENO) != 1, "stdin is a terminal here"))
    func noTerminalNoPrompt() {
        #expect(makePromptConsole(prompt: "> ", completion: Answer(candidates: [], completed: "")) == nil)
    }
}
