/// Eight bytes of JSON text looked at in one go: which of them a JSON string cannot hold as they are (`"`, `\`
/// and the control characters below 0x20). The scanner skips string contents with it, unescaping copies the plain
/// bytes between escapes with it, and the NDJSON writer copies the bytes that need no escaping with it.
enum JSONSpecialBytes {
    /// The high bit of each byte of `word` (byte 0 lowest, as loaded little-endian) that is `"`, `\` or below
    /// 0x20, by the classic SWAR zero-byte test on each: a byte above a flagged one may be flagged falsely, never
    /// the lowest flagged one, so a caller jumps to the lowest and looks at it byte by byte.
    @inline(__always)
    static func of(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        return ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (word &- ones &* 0x20) & ~word) & highs
    }
}
