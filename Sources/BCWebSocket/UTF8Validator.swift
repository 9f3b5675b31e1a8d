/// Checks UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF) a chunk at a time, carrying
/// a code point cut between chunks to the next one, so that a text message that goes wrong is refused at the chunk
/// with the first bad byte (RFC 6455 8.1: fail fast), not when it ends.
struct UTF8Validator: Equatable {
    /// Continuation bytes the current code point still needs.
    private var needed = 0
    /// The range its next continuation byte must fall in: 80–BF, narrower after E0, ED, F0 and F4.
    private var low: UInt8 = 0x80
    private var high: UInt8 = 0xBF
    private(set) var failed = false

    /// No code point is left cut (the bytes so far may end a message).
    var isComplete: Bool { needed == 0 && !failed }

    /// Whether the bytes so far can still be (the start of) UTF-8.
    @discardableResult
    mutating func validate(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !failed else { return false }
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            index += 1
            if needed == 0 {
                if byte < 0x80 { continue }
                switch byte {
                case 0xC2...0xDF: (needed, low, high) = (1, 0x80, 0xBF)
                case 0xE0: (needed, low, high) = (2, 0xA0, 0xBF)  // no overlong 3-byte form
                case 0xED: (needed, low, high) = (2, 0x80, 0x9F)  // no surrogate
                case 0xE1...0xEF: (needed, low, high) = (2, 0x80, 0xBF)
                case 0xF0: (needed, low, high) = (3, 0x90, 0xBF)  // no overlong 4-byte form
                case 0xF1...0xF3: (needed, low, high) = (3, 0x80, 0xBF)
                case 0xF4: (needed, low, high) = (3, 0x80, 0x8F)  // nothing above U+10FFFF
                default:
                    failed = true
                    return false
                }
            } else {
                guard byte >= low, byte <= high else {
                    failed = true
                    return false
                }
                needed -= 1
                (low, high) = (0x80, 0xBF)
            }
        }
        return true
    }
}
