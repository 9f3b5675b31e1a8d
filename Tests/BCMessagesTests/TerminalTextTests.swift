import BCMessages
import Testing

/// `TerminalText`: what is escaped for a terminal, what is left alone, and how long excerpts are cut.
@Suite struct TerminalTextTests {
    /// Every scalar the doc comment lists, and nothing else below U+3000.
    static let escapedScalars: Set<UInt32> = Set(Array(0x00...0x08) + Array(0x0A...0x1F) + Array(0x7F...0x9F)
        + [0x061C, 0x200E, 0x200F] + Array(0x2028...0x202E) + Array(0x2066...0x2069))

    @Test func everyC0ControlButTabIsEscaped() {
        for value in UInt32(0x00)...0x1F where value != 0x09 {
            let scalar = Unicode.Scalar(value)!
            let expected = "a\\u{\(String(value, radix: 16, uppercase: true))}b"
            #expect(TerminalText.escaped("a\(Character(scalar))b") == expected, "U+\(String(value, radix: 16))")
        }
        #expect(TerminalText.escaped("a\tb") == "a\tb", "TAB stays")
    }

    @Test func theCommonControlsReadAsSwiftEscapes() {
        #expect(TerminalText.escaped("\u{1B}[2J") == #"\u{1B}[2J"#)
        #expect(TerminalText.escaped("\u{0}") == #"\u{0}"#, "NUL, no padding")
        #expect(TerminalText.escaped("one\r\ntwo") == #"one\u{D}\u{A}two"#, "CRLF: two escapes")
        #expect(TerminalText.escaped("bell\u{7}") == #"bell\u{7}"#)
        #expect(TerminalText.escaped("\u{1B}]0;pwned\u{7}") == #"\u{1B}]0;pwned\u{7}"#)
    }

    @Test func delAndTheC1RangeAreEscaped() {
        #expect(TerminalText.escaped("a\u{7F}b") == #"a\u{7F}b"#)
        #expect(TerminalText.escaped("\u{80}") == #"\u{80}"#, "the C1 range's start")
        #expect(TerminalText.escaped("\u{9B}2J") == #"\u{9B}2J"#, "CSI")
        #expect(TerminalText.escaped("\u{9F}") == #"\u{9F}"#, "the C1 range's end")
        #expect(TerminalText.escaped("\u{A0}é\u{7E}") == "\u{A0}é~", "NBSP, é and ~ are just after the ranges")
    }

    @Test(arguments: [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068,
                      0x2069, 0x2028, 0x2029] as [UInt32])
    func eachBidiControlAndUnicodeLineBreakIsEscaped(_ value: UInt32) {
        let scalar = Unicode.Scalar(value)!
        let hex = String(value, radix: 16, uppercase: true)
        #expect(TerminalText.escaped("evil\(Character(scalar))txt.exe") == "evil\\u{\(hex)}txt.exe")
        #expect(TerminalText.needsEscaping(scalar))
    }

    @Test func theNeighboursOfTheEscapedRangesAreLeftAlone() {
        for value in [0x061B, 0x061D, 0x200D, 0x2010, 0x2027, 0x202F, 0x2065, 0x206A] as [UInt32] {
            let text = "x\(Character(Unicode.Scalar(value)!))y"
            #expect(TerminalText.escaped(text) == text, "U+\(String(value, radix: 16, uppercase: true))")
        }
    }

    /// The byte scan (the fast path, eight bytes at a time through ASCII) and the scalar rule agree on every
    /// scalar up to U+3000 and a few beyond, alone and at every offset of a longer text, so that it falls in
    /// every position of a word and straddles words.
    @Test func theFastPathAgreesWithTheScalarRule() {
        var disagreements: [String] = []
        let padding = String(repeating: "abcdefgh", count: 3)
        for value in UInt32(0)...0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let escaped = Self.escapedScalars.contains(value)
            if TerminalText.needsEscaping(scalar) != escaped { disagreements.append("needsEscaping U+\(value)") }
            for offset in [0, 1, 5, 6, 7, 8, 13, 15, 16] {
                let text = String(padding.prefix(offset)) + String(Character(scalar)) + padding
                if (TerminalText.escaped(text) != text) != escaped {
                    disagreements.append("U+\(String(value, radix: 16, uppercase: true)) at \(offset)")
                }
            }
            let alone = String(Character(scalar))
            if (TerminalText.escaped(alone) != alone) != escaped { disagreements.append("U+\(value) alone") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
        for text in ["🇯🇵", "\u{10FFFF}", "\u{E000}", "\u{FEFF}", padding + "🇯🇵" + padding, padding + "\t" + padding] {
            #expect(TerminalText.escaped(text) == text)
        }
    }

    /// A multibyte control cut across two words of the scan, and controls at the very end of a long text.
    @Test func controlsAcrossAndAtTheEndOfWords() {
        let seven = "1234567"
        #expect(TerminalText.escaped(seven + "\u{202E}x") == "1234567\\u{202E}x", "E2 80 AE from byte 7 to byte 9")
        #expect(TerminalText.escaped(seven + "\u{85}" + seven) == "1234567\\u{85}1234567", "C2 85 across bytes 7 and 8")
        #expect(TerminalText.escaped(seven + "\u{61C}") == "1234567\\u{61C}", "D8 9C at the end")
        #expect(TerminalText.escaped(String(repeating: "x", count: 64) + "\u{1B}") == String(repeating: "x", count: 64) + "\\u{1B}")
        #expect(TerminalText.escaped(String(repeating: "x", count: 64) + "\u{7F}") == String(repeating: "x", count: 64) + "\\u{7F}")
        // Words the arithmetic flags (a borrow or a carry) but that are clean: ' ' (0x20), '~' (0x7E), and bytes just
        // above them.
        for text in [String(repeating: " ", count: 16), String(repeating: "~", count: 16), " ~ ~!}!}" + "~ ~ ! } "] {
            #expect(TerminalText.escaped(text) == text)
        }
    }

    @Test func emojiCJKCombiningMarksAndRTLTextAreUnchanged() {
        let texts = ["ねこまる sent 花束 ×8 (300 coins each)", "👨‍👩‍👧‍👦 family, 🏳️‍🌈 flag, 👍🏽 thumbs",
                     "e\u{301} cafe\u{301} Z̤̈a̴̢l̵g̸o", "مرحبا بالعالم", "שלום", "한국어 中文 日本語",
                     #"a backslash \ and \u{1B} as text"#, "tab\tseparated", ""]
        for text in texts {
            #expect(TerminalText.escaped(text) == text)
            #expect(TerminalText.escaped(Substring(text)) == text)
        }
    }

    @Test func aMixKeepsTheTextAndEscapesOnlyTheControls() {
        let hostile = "hi\u{1B}[31m\nforged line\u{9B}2J\u{202E}evil 👍 猫"
        #expect(TerminalText.escaped(hostile) == #"hi\u{1B}[31m\u{A}forged line\u{9B}2J\u{202E}evil 👍 猫"#)
        // A substring in the middle of a string: the scan sees only its own bytes.
        let text = "\u{1B}clean part\u{1B}"
        let middle = text.dropFirst().dropLast()
        #expect(TerminalText.escaped(middle) == "clean part")
    }

    @Test func escapingIsIdempotent() {
        let hostile = "\u{0}\u{1B}[2J\r\n\u{7F}\u{85}\u{9B}\u{200F}\u{2066}x"
        let once = TerminalText.escaped(hostile)
        #expect(TerminalText.escaped(once) == once)
        #expect(once.unicodeScalars.allSatisfy { (0x20..<0x7F).contains($0.value) }, "printable ASCII only: \(once)")
    }

    @Test func aCleanStringIsReturnedAsItIs() {
        let clean = String(repeating: "plain ascii and ねこ ", count: 100)
        let result = TerminalText.escaped(clean)
        #expect(result == clean)
        // The same storage: no copy was made.
        #expect(result.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
            == clean.utf8.withContiguousStorageIfAvailable { $0.baseAddress })
    }

    @Test func excerptsKeepShortTextAndCutLongTextInScalars() {
        #expect(TerminalText.excerpt("short") == "short")
        let exact = String(repeating: "x", count: 200)
        #expect(TerminalText.excerpt(exact) == exact, "200 scalars: kept whole")
        let long = String(repeating: "x", count: 1_000_000)
        #expect(TerminalText.excerpt(long) == String(repeating: "x", count: 200) + "… (1000000 bytes)")
        #expect(TerminalText.excerpt("abcdef", limit: 3) == "abc… (6 bytes)")
        // One character of a megabyte (a letter and its combining marks): a limit in characters would keep it whole.
        let zalgo = "a" + String(repeating: "\u{301}", count: 500_000)
        #expect(zalgo.count == 1)
        let cut = TerminalText.excerpt(zalgo, limit: 10)
        #expect(cut.unicodeScalars.count == 10 + "… (1000001 bytes)".unicodeScalars.count)
        #expect(cut.hasSuffix("… (1000001 bytes)"))
        #expect(TerminalText.excerpt(Substring("héllo wörld"), limit: 5) == "héllo… (13 bytes)")
    }
}
