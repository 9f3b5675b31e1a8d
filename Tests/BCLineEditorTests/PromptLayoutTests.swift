@testable import BCLineEditor
import Testing

/// Where libedit leaves the cursor, which is how far up the prompt is erased before a log line is printed above
/// it: one row too few leaves a stale prompt on the screen, one too many erases a log line.
@Suite("The prompt's layout")
struct PromptLayoutTests {
    let layout = PromptLayout(columns: 10)

    @Test("text that fills a row exactly leaves the cursor at the start of the next")
    func aFullRowMovesTheCursorDown() {
        #expect(layout.row(after: "") == 0)
        #expect(layout.row(after: "123456789") == 0)
        #expect(layout.row(after: "1234567890") == 1)
        #expect(layout.row(after: "12345678901234567890x") == 2)
    }

    @Test("a control character takes two columns, as libedit shows it (^A, ^?)")
    func aControlTakesTwoColumns() {
        #expect(layout.row(after: "1234567\u{01}") == 0)
        #expect(layout.row(after: "12345678\u{01}") == 1)
        #expect(layout.row(after: "12345678\u{7F}") == 1)
    }

    @Test("a tab goes to the next multiple of eight")
    func aTabGoesToTheNextStop() {
        #expect(layout.row(after: "a\tb") == 0)  // columns 0, 1-7, 8
        #expect(layout.row(after: "a\tbc") == 1)  // c ends in column 10: the row is full
    }

    @Test("a character that does not fit on the row goes whole to the next one")
    func aCharacterIsNeverSplitAcrossRows() {
        // ^A does not fit after nine columns: it takes columns 0-1 of the second row, and eight more fill it.
        #expect(layout.row(after: "123456789\u{01}1234567") == 1)
        #expect(layout.row(after: "123456789\u{01}12345678") == 2)
    }

    @Test("a terminal that does not say its width is taken as 80 columns", arguments: [0, -1])
    func anUnknownWidthIs80(columns: Int) {
        let unknown = PromptLayout(columns: columns)
        #expect(unknown.row(after: String(repeating: "x", count: 79)) == 0)
        #expect(unknown.row(after: String(repeating: "x", count: 80)) == 1)
    }
}
