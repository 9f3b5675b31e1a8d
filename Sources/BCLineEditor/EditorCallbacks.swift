import BCConsole
import CLibEdit
import Foundation
import Synchronization

/// What the C callbacks of the editor thread need, for the life of one `LineEditor`.
struct EditorCallbackState: Sendable {
    let prompt: String
    let completion: any PromptCompleting
    /// Where typed lines go.
    let typed: AsyncStream<String>.Continuation
    /// Ctrl-D on an empty line was typed: libedit has left the editor and the prompt is not shown again.
    var inputEnded = false
    /// The line history last received, so that a line entered twice in a row is recalled once.
    var lastHistoryLine: String?
}

/// Set by `LineEditor.init` before its editor thread starts, cleared by that thread when it leaves; read only by
/// callbacks that run on that thread. A global because C function pointers carry no context.
let editorCallbackState = Mutex<EditorCallbackState?>(nil)

/// libedit's line handler: a line was entered (Enter) or the input ended (nil, Ctrl-D on an empty line). Runs on
/// the editor thread, inside `rl_callback_read_char`. The line is ours to free.
func handleLine(_ line: UnsafeMutablePointer<CChar>?) {
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
func completeWord(_ text: UnsafePointer<CChar>?) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
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
