@testable import BCWebSocket
import Testing

@Suite("UTF-8 checked chunk by chunk")
struct UTF8ValidatorTests {
    /// Feeds `bytes` cut at every position in `cuts`; returns whether each chunk passed and whether it ended whole.
    private func check(_ bytes: [UInt8], cutAt cuts: [Int]) -> (passed: [Bool], complete: Bool) {
        var validator = UTF8Validator()
        var passed: [Bool] = []
        var start = 0
        for end in cuts + [bytes.count] {
            passed.append(bytes[start..<end].withUnsafeBytes { validator.validate($0) })
            start = end
        }
        return (passed, validator.isComplete)
    }

    static let validSamples: [[UInt8]] = [
        [], Array("ascii".utf8), Array("Grüße".utf8), Array("κόσμε".utf8), Array("€".utf8), Array("𝄞".utf8),
        [0xF4, 0x8F, 0xBF, 0xBF],  // U+10FFFF, the last code point
        [0xED, 0x9F, 0xBF],  // U+D7FF, just below the surrogates
        [0xEE, 0x80, 0x80],  // U+E000, just above them
    ]

    @Test("valid text passes whole and cut at every byte, as Swift's own decoder agrees", arguments: validSamples)
    func valid(_ bytes: [UInt8]) {
        #expect(String(validating: bytes, as: UTF8.self) != nil)
        #expect(check(bytes, cutAt: []) == ([true], true))
        for cut in 0...bytes.count {
            #expect(check(bytes, cutAt: [cut]) == ([true, true], true))
        }
    }

    static let invalidSamples: [(bytes: [UInt8], firstBad: Int)] = [
        ([0x80], 0),  // a lone continuation byte
        ([0xC0, 0xAF], 0),  // overlong '/'
        ([0xC1, 0xBF], 0),
        ([0xE0, 0x80, 0xAF], 1),  // overlong 3-byte form
        ([0xF0, 0x80, 0x80, 0xAF], 1),  // overlong 4-byte form
        ([0xED, 0xA0, 0x80], 1),  // U+D800, a surrogate
        ([0xF4, 0x90, 0x80, 0x80], 1),  // above U+10FFFF
        ([0xF5, 0x80, 0x80, 0x80], 0),
        ([0xFF], 0),
        // Autobahn 6.4.1's payload: the surrogate's second byte is the first bad one.
        (Array("κόσμε".utf8) + [0xED, 0xA0, 0x80] + Array("edited".utf8), Array("κόσμε".utf8).count + 1),
        ([0xCE, 0xBA, 0xE1, 0x41], 3),  // a code point cut short by ASCII
    ]

    @Test("invalid text fails at the chunk holding its first bad byte, wherever the cut falls",
          arguments: invalidSamples)
    func invalid(_ bytes: [UInt8], firstBad: Int) {
        #expect(String(validating: bytes, as: UTF8.self) == nil)
        for cut in 0...bytes.count {
            let (passed, complete) = check(bytes, cutAt: [cut])
            // The chunk before the cut holds the bad byte when the cut is past it.
            #expect(passed == (cut > firstBad ? [false, false] : [true, false]))
            #expect(!complete)
        }
    }

    @Test("a code point cut at the end of the last chunk is not complete")
    func cutShort() {
        #expect(check([0xE2, 0x82], cutAt: []) == ([true], false))
        #expect(check([0xF0, 0x9D, 0x84], cutAt: [1]) == ([true, true], false))
    }
}
