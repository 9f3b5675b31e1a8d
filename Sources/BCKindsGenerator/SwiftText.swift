/// Small helpers that lay generated Swift out as a person would write it: 120 columns, doc comments wrapped at
/// word boundaries, long argument lists wrapped.
enum SwiftText {
    static let width = 120

    /// `text` as `///` lines at `indent`, each paragraph line of `text` wrapped to the width.
    static func doc(_ text: String, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                lines.append(pad + "///")
                continue
            }
            lines += wrap(String(line), first: pad + "/// ", rest: pad + "/// ")
        }
        return lines
    }

    /// `text` as `//` lines at `indent`, wrapped to the width.
    static func comment(_ text: String, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        return wrap(text, first: pad + "// ", rest: pad + "// ")
    }

    /// Words of `text` after `first` on the first line and `rest` on the others, up to the width.
    static func wrap(_ text: String, first: String, rest: String) -> [String] {
        var lines: [String] = []
        var current = first
        var empty = true
        for word in text.split(separator: " ") {
            if !empty && current.count + 1 + word.count > width {
                lines.append(current)
                current = rest + word
            } else {
                current += (empty ? "" : " ") + word
            }
            empty = false
        }
        lines.append(current)
        return lines
    }

    /// `head(items) tail` on one line when it fits, else the items wrapped on lines of their own between
    /// `head(` and `) tail`.
    static func call(_ head: String, _ items: [String], tail: String, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let oneLine = pad + head + "(" + items.joined(separator: ", ") + ")" + tail
        if oneLine.count <= width { return [oneLine] }
        var lines = [pad + head + "("]
        var current = pad + "    "
        for (index, item) in items.enumerated() {
            let piece = item + (index == items.count - 1 ? "" : ",")
            if current.count > indent + 4 && current.count + 1 + piece.count > width {
                lines.append(current)
                current = pad + "    " + piece
            } else {
                current += (current.count > indent + 4 ? " " : "") + piece
            }
        }
        lines.append(current)
        lines.append(pad + ")" + tail)
        return lines
    }

    /// `gift_id` → `.giftID` case with its raw value when the two differ.
    static func codingKey(_ name: String, _ key: String) -> String {
        name == key ? "case \(name)" : "case \(name) = \"\(key)\""
    }
}
