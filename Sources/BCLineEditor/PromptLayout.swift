import CLibEdit

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
