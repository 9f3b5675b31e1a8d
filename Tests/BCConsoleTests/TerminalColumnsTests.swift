@testable import BCConsole
import Testing

@Suite("Laying text out on a terminal")
struct TerminalColumnsTests {
    @Test("wide characters and emoji take two columns; marks and selectors none", arguments: [
        ("abc", 3), ("ねこまる", 8), ("みかん🍊", 8), ("e\u{301}", 1), ("™️", 1), ("한국", 4), ("ｆｕｌｌ", 8),
    ])
    func cells(text: String, columns: Int) {
        #expect(TerminalColumns.cells(text) == columns)
    }

    @Test("a long line wraps at a space with a hanging indent; every row fits; nothing is lost")
    func wraps() {
        let text = "t=35   gift   Taro sent 小さなハート ×1 (1 coin each); 121 coins in this live"
        let rows = TerminalColumns.wrapped(text, width: 40, indent: 14)
        #expect(rows.count > 1)
        #expect(rows.allSatisfy { TerminalColumns.cells($0) <= 40 })
        #expect(rows.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 14)) })
        let rejoined = rows.enumerated().map { $0.offset == 0 ? $0.element : String($0.element.dropFirst(14)) }
        #expect(rejoined.joined(separator: " ").split(separator: " ") == text.split(separator: " "))
    }

    @Test("a list breaks between its items, aligned under the first, never between a count and its name")
    func listBreaks() {
        let text = "20 messages: 5 comment, 4 gift, 3 join, 3 viewerCountChanged, 1 cheerLevelUp, 1 follow; 0 errors"
        let rows = TerminalColumns.wrapped(text, width: 50, indent: 13)
        #expect(rows.count > 1)
        #expect(rows.dropLast().allSatisfy { $0.hasSuffix(",") || $0.hasSuffix(";") }, "\(rows)")
        #expect(rows.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 13)) && $0.dropFirst(13).first?.isNumber == true })
    }

    @Test("a word longer than a row is cut where the row is full; a line that fits is untouched")
    func hardBreaks() {
        let word = String(repeating: "あ", count: 30)
        let rows = TerminalColumns.wrapped(word, width: 21, indent: 4)
        #expect(rows.allSatisfy { TerminalColumns.cells($0) <= 21 })
        #expect(rows.map { $0.filter { $0 != " " } }.joined() == word)
        #expect(TerminalColumns.wrapped("short", width: 21, indent: 4) == ["short"])
    }

    @Test("fitted cuts to the room with an ellipsis")
    func fitted() {
        #expect(TerminalColumns.fitted("1/1 connected · 20 messages", room: 10) == "1/1 conne…")
        #expect(TerminalColumns.fitted("ねこまる", room: 5) == "ねこ…")
        #expect(TerminalColumns.fitted("short", room: 10) == "short")
    }
}
