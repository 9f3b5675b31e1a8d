/// Text that came from outside (a viewer's name or comment, a server's or a client's line, a file name read
/// from disk) made safe to print on one line of a terminal or a log.
///
/// A terminal acts on some characters instead of showing them: ESC starts a sequence that clears the screen,
/// moves the cursor, retitles the window or (OSC 52) writes the clipboard; CR goes back to the start of the line
/// and LF starts another, so a comment could forge a line of output; the C1 controls (CSI U+009B and OSC U+009D
/// among them) do what ESC sequences do on terminals that honour them; and the bidi controls reorder what
/// follows, so that text reads differently from what it is ("Trojan Source"). `escaped(_:)` shows each of them
/// as a Swift escape, `\u{1B}`, and leaves every other character as it is (emoji, CJK, combining marks, RTL
/// letters, TAB, backslash).
///
/// This is for output meant for people. The decoded values themselves (`BCResponse`, `summary`, error
/// descriptions) keep the text exactly as received; an app showing a comment in a text view wants its
/// RLM and its line breaks. Machine-readable output (NDJSON) needs none of this: JSON escapes the controls,
/// and the rest is inert inside a JSON string.
public enum TerminalText {
    /// `text` with every character a terminal would act on written as `\u{HEX}` (uppercase hex digits, no
    /// padding: ESC is `\u{1B}`, NUL `\u{0}`, RLO `\u{202E}`), so that the result is one line that moves no
    /// cursor and changes nothing on the terminal. Escaped are exactly:
    /// - the C0 controls except TAB: U+0000–U+0008 and U+000A–U+001F (LF, CR, ESC, BEL, BS… included);
    /// - DEL, U+007F, and the C1 controls, U+0080–U+009F (NEL, CSI, OSC… included);
    /// - the bidi controls: U+061C ALM, U+200E LRM, U+200F RLM, U+202A–U+202E (LRE, RLE, PDF, LRO, RLO) and
    ///   U+2066–U+2069 (LRI, RLI, FSI, PDI);
    /// - U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR, line breaks to Unicode (and to Swift's
    ///   `Character.isNewline`), so that a reader splitting lines the Unicode way also sees one line.
    ///
    /// A backslash is not escaped, so the result is not reversible: it is for showing, not for parsing. As the
    /// escapes are printable ASCII, escaping twice gives the same text as escaping once.
    ///
    /// Text with nothing to escape (nearly all of it) is returned as it is, without allocating, after one pass
    /// over its UTF-8 bytes that takes printable ASCII eight bytes at a time.
    public static func escaped<S: StringProtocol>(_ text: S) -> String {
        let clean = text.utf8.withContiguousStorageIfAvailable { !containsEscapable($0) }
            ?? !text.unicodeScalars.contains(where: needsEscaping(_:))
        if clean { return String(text) }
        var result = String.UnicodeScalarView()
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if needsEscaping(scalar) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// At most `limit` Unicode scalars of `text`, for a report that quotes untrusted text on one line: when
    /// `text` is longer, its first `limit` scalars followed by `… (N bytes)`, N being `text`'s whole size in
    /// UTF-8. Scalars, not characters: one character can hold any number of combining marks, so a limit in
    /// characters would let a megabyte through. It does not escape; print the result through `escaped(_:)`.
    public static func excerpt<S: StringProtocol>(_ text: S, limit: Int = defaultExcerptLimit) -> String {
        if text.utf8.count <= limit { return String(text) }  // no more scalars than bytes
        var scalars = text.unicodeScalars.makeIterator()
        var head = String.UnicodeScalarView()
        var taken = 0
        while taken < limit, let scalar = scalars.next() {
            head.append(scalar)
            taken += 1
        }
        guard scalars.next() != nil else { return String(text) }
        return String(head) + "… (\(text.utf8.count) bytes)"
    }

    /// How much of an untrusted text `excerpt(_:limit:)` keeps by default.
    public static let defaultExcerptLimit = 200

    /// Whether `escaped(_:)` writes `scalar` as an escape.
    public static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether the UTF-8 `bytes` of a valid string hold a scalar `needsEscaping` accepts. Eight bytes at a time
    /// while they are printable ASCII (0x20–0x7E), byte by byte through the others. The lead bytes it looks at
    /// (C2, D8, E2) are never continuation bytes, so a match is always the start of a scalar.
    private static func containsEscapable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        let count = bytes.count
        var index = 0
        while index < count {
            if index + 8 <= count {
                // A byte below 0x20 sets its high bit once 0x20 is taken from it, 0x7F once 1 is added to it, and
                // a byte above 0x7F has it already. Borrows and carries between bytes can only flag a clean word,
                // which the bytes below then clear.
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let flags = (word &- 0x2020_2020_2020_2020) | (word &+ 0x0101_0101_0101_0101) | word
                if flags & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                    continue
                }
            }
            let end = min(index + 8, count)
            while index < end {
                let byte = base[index]
                index += 1
                if byte >= 0x20 && byte < 0x7F { continue }
                switch byte {
                case 0x09:
                    continue
                case 0x00...0x1F, 0x7F:
                    return true
                case 0xC2:  // U+0080–U+00BF: C1 is C2 80–C2 9F
                    if index < count, base[index] <= 0x9F { return true }
                case 0xD8:  // U+0600–U+063F: ALM is D8 9C
                    if index < count, base[index] == 0x9C { return true }
                case 0xE2:  // U+2000–U+2FFF
                    guard index + 1 < count else { continue }
                    let second = base[index], third = base[index + 1]
                    // U+200E–U+200F (E2 80 8E–8F), U+2028–U+202E (E2 80 A8–AE), U+2066–U+2069 (E2 81 A6–A9).
                    if second == 0x80, third == 0x8E || third == 0x8F || (0xA8...0xAE).contains(third) { return true }
                    if second == 0x81, (0xA6...0xA9).contains(third) { return true }
                default:
                    continue
                }
            }
        }
        return false
    }
}
