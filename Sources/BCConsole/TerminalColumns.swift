import Foundation

/// How text lays out on a terminal: how many columns a character takes, how wide the terminal is, and lines
/// cut or wrapped to fit it. Used only for what goes to a terminal; pipes and files get the lines whole.
public enum TerminalColumns {
    /// The width of the terminal on `descriptor`, or nil when it is not a terminal.
    public static func width(of descriptor: Int32) -> Int? {
        guard isatty(descriptor) == 1 else { return nil }
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Columns `scalar` takes: 0 for combining marks, joiners and variation selectors, 2 for East Asian wide
    /// and fullwidth characters and emoji, 1 otherwise. (The common cases of wcwidth, without a locale.)
    public static func cells(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value) { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// Columns `text` takes: the sum of its scalars' (`cells(_:)`).
    public static func cells(_ text: some StringProtocol) -> Int {
        text.unicodeScalars.reduce(0) { $0 + cells($1) }
    }

    /// `text` in at most `room` columns, with "…" where it was cut.
    public static func fitted(_ text: String, room: Int) -> String {
        guard cells(text) > room else { return text }
        var width = 0
        var result = ""
        for scalar in text.unicodeScalars {
            let cells = cells(scalar)
            if width + cells > room - 1 { break }
            width += cells
            result.unicodeScalars.append(scalar)
        }
        return result + "…"
    }

    /// `text` as rows of at most `width` columns, every row after the first indented by `indent` spaces (a
    /// hanging indent, so a list stays in its column). A row breaks after its last list separator ("," or ";"),
    /// else after its last space when that space is in the row's second half, else where the row is full.
    /// Linear in the text's length. For lists (the final counts); a message is one row, cut (`fitted`).
    public static func wrapped(_ text: String, width: Int, indent: Int) -> [String] {
        let indent = max(0, min(indent, width / 2))
        guard width > indent + 1, cells(text) > width else { return [text] }
        func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
            var result = ""
            result.unicodeScalars.append(contentsOf: scalars)
            return result
        }
        let padding = Array(repeating: Unicode.Scalar(" "), count: indent)
        var rows: [String] = []
        var row: [Unicode.Scalar] = []
        var rowCells = 0
        /// Where the row's last space is, and the columns before it; and its last space after a list separator
        /// ("," or ";"), where a list breaks best: "1 follow," then "1 liveEnded", never "1" then "liveEnded".
        var lastSpace: (offset: Int, cells: Int)?
        var lastListBreak: (offset: Int, cells: Int)?
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            let cells = cells(scalar)
            if rowCells + cells > width {
                let listBreak = lastListBreak.flatMap { $0.cells > indent ? $0 : nil }
                let wordBreak = lastSpace.flatMap { $0.cells > (width + indent) / 2 ? $0 : nil }
                if let space = listBreak ?? wordBreak {
                    let rest = row[(space.offset + 1)...]
                    rows.append(string(row[..<space.offset]))
                    row = padding + rest
                    rowCells = indent + rest.reduce(0) { $0 + Self.cells($1) }
                } else {
                    rows.append(string(row[...]))
                    row = padding
                    rowCells = indent
                }
                lastSpace = nil
                lastListBreak = nil
            }
            if scalar == " ", rowCells > indent {
                lastSpace = (row.count, rowCells)
                if previous == "," || previous == ";" { lastListBreak = lastSpace }
            }
            previous = scalar
            row.append(scalar)
            rowCells += cells
        }
        rows.append(string(row[...]))
        return rows
    }
}
