/// What Tab completes at a prompt (`LineEditor`): the words that may follow what was typed, and the longest text
/// they all start with. Pure: called on the editor's thread, it must not block.
public protocol PromptCompleting: Sendable {
    /// Every word that completes `typed`, for the list shown on a second Tab; empty when none does.
    func completions(for typed: String) -> [String]
    /// The longest text every completion of `typed` starts with: what Tab puts in place of `typed`.
    func completedText(for typed: String) -> String
}
