#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON text a message's bytes hold, as Foundation's `JSONDecoder` reads it: UTF-8 as it is, without a byte
/// order mark; UTF-16 and UTF-32 (told apart by the first four bytes, as RFC 4627 suggests) transcoded to UTF-8.
///
/// The fast engine reads that text itself rather than handing such messages to `JSONDecoder`, whose decoding
/// takes time cubic in the nesting depth (its coding paths) and which traps on some texts (`foundationMayTrap`).
enum JSONText {
    /// `JSONDecoder.withUTF8Representation`'s detection (swift-foundation), case for case: the encoding, and the
    /// length of the byte order mark it drops.
    static func encoding(of bytes: UnsafeBufferPointer<UInt8>) -> (encoding: String.Encoding, byteOrderMark: Int) {
        let count = bytes.count
        func byte(_ offset: Int) -> Int { offset < count ? Int(bytes[offset]) : -1 }  // -1: no such byte
        switch (byte(0), byte(1), byte(2), byte(3)) {
        case (0, 0, 0xFE, 0xFF): return (.utf32BigEndian, 4)
        case (0xFE, 0xFF, 0, 0): return (.utf32LittleEndian, 4)
        case (0xFE, 0xFF, _, _): return (.utf16BigEndian, 2)
        case (0xFF, 0xFE, _, _): return (.utf16LittleEndian, 2)
        case (0xEF, 0xBB, 0xBF, _): return (.utf8, 3)
        case (0, 0, 0, 1...): return (.utf32BigEndian, 0)
        case (0, 1..., 0, 1...): return (.utf16BigEndian, 0)
        case (1..., 0, 0, 0): return (.utf32LittleEndian, 0)
        case (1..., 0, 1..., 0): return (.utf16LittleEndian, 0)
        // Two bytes only: a one-character UTF-16 text.
        case (0, 1..., -1, -1): return (.utf16BigEndian, 0)
        case (1..., 0, -1, -1): return (.utf16LittleEndian, 0)
        default: return (.utf8, 0)
        }
    }

    /// Calls `body` with the UTF-8 text `JSONDecoder`'s scanner reads from `bytes`, or with nil when `JSONDecoder`
    /// cannot convert them (it then fails with "not valid JSON", as for any malformed text). UTF-8 costs nothing;
    /// other encodings are converted by the initializer `JSONDecoder` uses, `String(bytes:encoding:)`.
    static func withText<Result>(
        of bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>?) -> Result
    ) -> Result {
        // The usual message, `{"…`: a first byte that is ASCII and not NUL, and a second that is not NUL, can be
        // neither a byte order mark nor UTF-16 or UTF-32 (see `encoding(of:)`).
        if let first = bytes.first, first != 0, first < 0x80, bytes.count < 2 || bytes[1] != 0 { return body(bytes) }
        let (encoding, byteOrderMark) = self.encoding(of: bytes)
        let text = UnsafeBufferPointer(rebasing: bytes[byteOrderMark...])
        if encoding == .utf8 { return body(text) }
        guard var string = String(bytes: text, encoding: encoding) else { return body(nil) }
        return string.withUTF8 { body($0) }
    }

    /// Whether Foundation's JSON scanner could trap on `bytes` instead of throwing. It does (swift-foundation up
    /// to at least 6.3.3: `JSONScanner.scanArray` reports the error one character past the opening bracket, which
    /// is past the end of the text) when the text's last character is a `[` that opens the 513th nested
    /// container. The fast engine never hands a message to Foundation; this tells the tests and the fuzzer when
    /// the Foundation engine must not be asked. True for a superset of the trapping texts: the text
    /// `JSONDecoder` reads ends with `[` and has more than 512 `[` or `{`. Such a text is malformed JSON
    /// whatever else it holds (it ends inside an array or inside a string), so where Foundation did not trap
    /// it would give the malformed-JSON error.
    static func foundationMayTrap(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        withText(of: bytes) { text in
            guard let text, text.last == UInt8(ascii: "[") else { return false }
            var openers = 0
            for byte in text where byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") { openers += 1 }
            return openers > TapeScanner.maximumDepth
        }
    }
}
