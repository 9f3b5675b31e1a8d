#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reading strings off the tape as Foundation's `JSONDecoder` reads them: validated, unescaped.
extension TapeDocument {
    /// The string at `index`, or nil when it is not a valid JSON string (a bad escape, a lone surrogate, a raw
    /// control character, invalid UTF-8): exactly when Foundation's decoder cannot read it either.
    func string(at index: Int32) -> String? {
        let entry = entries[Int(index)]
        let raw = UnsafeBufferPointer(rebasing: bytes[Int(entry.a)..<Int(entry.b)])
        work += raw.count
        if entry.flags & (TapeEntry.escaped | TapeEntry.control) == 0 {
            return Self.validString(raw, isASCII: entry.flags & TapeEntry.nonASCII == 0)
        }
        guard entry.flags & TapeEntry.control == 0 else { return nil }
        // Unescaping never lengthens a string (`unescape`), so it writes straight into the String's storage.
        if entry.flags & TapeEntry.nonASCII == 0 {
            // Escapes only give valid UTF-8 (a lone surrogate fails), and the rest is ASCII: nothing to validate.
            var failed = false
            let string = String(unsafeUninitializedCapacity: raw.count) { buffer in
                guard let base = buffer.baseAddress, let written = Self.unescape(raw, into: base) else {
                    failed = true
                    return 0
                }
                return written
            }
            return failed ? nil : string
        }
        if scratch.count < raw.count { scratch = [UInt8](repeating: 0, count: raw.count) }
        return scratch.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, let written = Self.unescape(raw, into: base) else { return nil }
            return Self.validString(UnsafeBufferPointer(start: base, count: written), isASCII: false)
        }
    }

    /// `String(decoding:)` repairs invalid UTF-8; comparing the result with the input tells whether it had to.
    /// (`String(validating:)` would check in one pass, but measured 5% slower over the captured corpus.)
    @inline(__always)
    static func validString(_ raw: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String? {
        if isASCII, raw.count <= 15 {
            // A small string (stored inline, no allocation): filled in place, 2-5 ns faster than `String(decoding:)`
            // up to 15 bytes; slower past them (measured over 1-40 bytes).
            return String(unsafeUninitializedCapacity: raw.count) { buffer in
                guard let source = raw.baseAddress, let target = buffer.baseAddress else { return 0 }
                target.update(from: source, count: raw.count)
                return raw.count
            }
        }
        var string = String(decoding: raw, as: UTF8.self)
        if isASCII { return string }
        let same = string.withUTF8 { decoded in
            guard decoded.count == raw.count else { return false }
            guard let left = decoded.baseAddress, let right = raw.baseAddress else { return true }
            return bytesEqual(left, right, count: raw.count)
        }
        return same ? string : nil
    }

    /// Foundation's unescaping rules: `\" \\ \/ \b \f \n \r \t \uXXXX` (a high surrogate must be followed by an
    /// escaped low one); any other escape, or a raw control character, makes the string unreadable (nil).
    ///
    /// Writes at most `raw.count` bytes to `output` (every escape is longer than what it stands for: two bytes
    /// for one, six for at most three, twelve for four), and returns how many.
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) -> Int? {
        guard let base = raw.baseAddress else { return 0 }
        var index = 0
        var written = 0
        let count = raw.count
        while index < count {
            // Eight plain bytes at a time, copied as one word: `written` never passes `index` (every escape is
            // longer than what it writes), so eight bytes stored at `written` while eight remain at `index` stay
            // within the `raw.count` the output holds. (A quote is flagged too, but one inside a string's raw text
            // always follows its backslash, which is flagged first.)
            if count &- index >= 8 {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let special = JSONSpecialBytes.of(UInt64(littleEndian: word))
                UnsafeMutableRawPointer(output + written).storeBytes(of: word, as: UInt64.self)
                if special == 0 {
                    index &+= 8
                    written &+= 8
                    continue
                }
                let plain = special.trailingZeroBitCount &>> 3
                index &+= plain
                written &+= plain
            }
            let byte = base[index]
            if byte != UInt8(ascii: "\\") {
                if byte < 0x20 { return nil }
                output[written] = byte
                written &+= 1
                index &+= 1
                continue
            }
            guard index &+ 1 < count else { return nil }
            // `\u` and `\/` by plain branches first: as cases of one switch (a jump table), the mix of the two in
            // escaped Japanese text and URLs mispredicted the indirect jump at most escapes. They compare the
            // backslash and the escape as one 16-bit word: tested on the escape byte alone, the compiler folded
            // the two tests into the switch below, and the jump table was back.
            let pair = UInt16(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt16.self))
            let escape = base[index &+ 1]
            index &+= 2
            if pair == 0x755C {  // \u
                // A run of them (escaped Japanese text) in a loop of its own, without looking for the next
                // escape eight bytes at a time.
                while true {
                    guard let unit = hexUnit(raw, at: index) else { return nil }
                    index &+= 4
                    var scalar = UInt32(unit)
                    if UTF16.isLeadSurrogate(unit) {
                        guard index &+ 6 <= count, base[index] == UInt8(ascii: "\\"),
                              base[index &+ 1] == UInt8(ascii: "u"),
                              let trail = hexUnit(raw, at: index &+ 2), UTF16.isTrailSurrogate(trail)
                        else { return nil }
                        index &+= 6
                        scalar = 0x10000 &+ ((UInt32(unit) &- 0xD800) &<< 10) &+ (UInt32(trail) &- 0xDC00)
                    } else if UTF16.isTrailSurrogate(unit) {
                        return nil  // a lone trail surrogate is no scalar
                    }
                    // UTF-8 by hand: the scalar is valid here (surrogates paired above, at most U+10FFFF).
                    let out = output + written
                    if scalar < 0x80 {
                        out[0] = UInt8(truncatingIfNeeded: scalar)
                        written &+= 1
                    } else if scalar < 0x800 {
                        out[0] = 0xC0 | UInt8(truncatingIfNeeded: scalar &>> 6)
                        out[1] = 0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F)
                        written &+= 2
                    } else if scalar < 0x10000 {
                        out[0] = 0xE0 | UInt8(truncatingIfNeeded: scalar &>> 12)
                        out[1] = 0x80 | UInt8(truncatingIfNeeded: (scalar &>> 6) & 0x3F)
                        out[2] = 0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F)
                        written &+= 3
                    } else {
                        out[0] = 0xF0 | UInt8(truncatingIfNeeded: scalar &>> 18)
                        out[1] = 0x80 | UInt8(truncatingIfNeeded: (scalar &>> 12) & 0x3F)
                        out[2] = 0x80 | UInt8(truncatingIfNeeded: (scalar &>> 6) & 0x3F)
                        out[3] = 0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F)
                        written &+= 4
                    }
                    guard count &- index >= 6, base[index] == UInt8(ascii: "\\"),
                          base[index &+ 1] == UInt8(ascii: "u") else { break }
                    index &+= 2
                }
                continue
            }
            if pair == 0x2F5C {  // \/
                output[written] = UInt8(ascii: "/")
                written &+= 1
                continue
            }
            let simple: UInt8
            switch escape {
            case UInt8(ascii: "\\"), UInt8(ascii: "\""): simple = escape
            case UInt8(ascii: "b"): simple = 0x08
            case UInt8(ascii: "f"): simple = 0x0C
            case UInt8(ascii: "n"): simple = 0x0A
            case UInt8(ascii: "r"): simple = 0x0D
            case UInt8(ascii: "t"): simple = 0x09
            default:
                return nil
            }
            output[written] = simple
            written &+= 1
        }
        return written
    }

    /// Four hex digits at `index` as a UTF-16 unit, nil when any is not a hex digit.
    ///
    /// All four at once, as one 32-bit word (no branch per digit: Japanese text escaped as `\u30xx` mixes digits
    /// and letters, which a branch per digit mispredicts): each byte must be ASCII and either `0`-`9` or, with its
    /// case bit set, `a`-`f`; adding a constant to each byte sets its high bit exactly when it is at or past a
    /// bound, and no byte below 0x80 carries into the next. A digit's value is its low nibble, plus 9 for a letter
    /// (bit 6 set).
    @inline(__always)
    static func hexUnit(_ raw: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt16? {
        guard index &+ 4 <= raw.count, let base = raw.baseAddress else { return nil }
        let word = UInt32(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt32.self))
        let highs: UInt32 = 0x8080_8080
        guard word & highs == 0 else { return nil }
        let digit = (word &+ 0x5050_5050) & ~(word &+ 0x4646_4646) & highs  // 0x30 <= byte <= 0x39
        let lower = word | 0x2020_2020
        let letter = (lower &+ 0x1F1F_1F1F) & ~(lower &+ 0x1919_1919) & highs  // 0x61 <= byte | 0x20 <= 0x66
        guard digit | letter == highs else { return nil }
        let nibbles = (word & 0x0F0F_0F0F) &+ ((word &>> 6) & 0x0101_0101) &* 9
        return UInt16(truncatingIfNeeded: (nibbles & 0xFF) &<< 12 | (nibbles &>> 8 & 0xFF) &<< 8
                      | (nibbles &>> 16 & 0xFF) &<< 4 | nibbles &>> 24)
    }
}
