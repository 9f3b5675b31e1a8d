@testable import BCWebSocket
import Foundation
import Testing

/// The server's deflater, checked against the inflater both roles read with: every frame asked for is a frame,
/// messages come back whole, the agreed window and context takeover are honoured.
@Suite("Message deflater")
struct MessageDeflaterTests {
    /// Deflates `message` in `fragments` frames; the frames' payloads.
    private func deflate(_ message: [UInt8], fragments: Int, with deflater: MessageDeflater) -> [[UInt8]] {
        ServiceSession.frames(of: message, binary: false, fragments: fragments).map { frame in
            var output: [UInt8] = []
            let done = frame.bytes.withUnsafeBytes { deflater.deflate($0, endsMessage: frame.head & 0x80 != 0, into: &output) }
            #expect(done)
            return output
        }
    }

    /// Inflates a message's frames as a receiver does (the tail put back after the last).
    private func inflate(_ frames: [[UInt8]], with inflater: MessageInflater) -> [UInt8]? {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        defer { scratch.deallocate() }
        var out: [UInt8] = []
        for (index, frame) in frames.enumerated() {
            let outcome = frame.withUnsafeBytes {
                inflater.inflate($0, endsMessage: index == frames.count - 1, scratch: scratch) { piece in
                    out += piece
                    return true
                }
            }
            guard outcome == .done else { return nil }
        }
        return out
    }

    private static let messages: [[UInt8]] = [
        Array("MSG\tchannel\t{\"comment\":\"hello\",\"n\":1}".utf8),
        [],
        Array(String(repeating: "repetitive text ", count: 4000).utf8),
        (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) },  // does not compress
        Array("MSG\tchannel\t{\"comment\":\"hello\",\"n\":2}".utf8),
    ]

    @Test("messages in any number of fragments come back whole, one frame per fragment",
          arguments: [1, 2, 7], [false, true])
    func roundTrip(fragments: Int, noContextTakeover: Bool) {
        let deflater = MessageDeflater(windowBits: 15, noContextTakeover: noContextTakeover)
        let inflater = MessageInflater()
        for message in Self.messages {
            let frames = deflate(message, fragments: fragments, with: deflater)
            #expect(frames.count == max(1, min(fragments, message.count)))
            #expect(!(frames.last ?? []).suffix(4).elementsEqual([0, 0, 0xFF, 0xFF]), "the flush tail is taken off")
            #expect(inflate(frames, with: inflater) == message)
        }
    }

    @Test("repeated text shrinks, and more so when the context is taken over")
    func compresses() {
        let message = Self.messages[2]
        let deflater = MessageDeflater(windowBits: 15, noContextTakeover: false)
        let first = deflate(message, fragments: 1, with: deflater)[0]
        #expect(first.count < message.count / 20)
        let short = Self.messages[0]
        _ = deflate(short, fragments: 1, with: deflater)
        let again = deflate(short, fragments: 1, with: deflater)[0]
        #expect(again.count < 12, "the same message again is a back-reference, \(again.count) bytes")
    }

    @Test("with server_no_context_takeover each message inflates alone, with a fresh inflater")
    func noContextTakeover() {
        let deflater = MessageDeflater(windowBits: 15, noContextTakeover: true)
        for message in Self.messages + Self.messages {
            #expect(inflate(deflate(message, fragments: 1, with: deflater), with: MessageInflater()) == message)
        }
    }

    @Test("server_max_window_bits=8 (zlib makes 9) is read by a receiver with a 256-byte window",
          arguments: [8, 9, 10])
    func smallWindow(bits: Int) {
        let deflater = MessageDeflater(windowBits: bits, noContextTakeover: false)
        let inflater = MessageInflater(windowBits: Int32(bits))
        let text = Array((0..<3000).map { "word\($0 % 97) " }.joined().utf8)
        for message in [text, Self.messages[2], text] {
            #expect(inflate(deflate(message, fragments: 3, with: deflater), with: inflater) == message)
        }
    }

    @Test("an empty message is one empty block, 0x00")
    func empty() {
        let deflater = MessageDeflater(windowBits: 15, noContextTakeover: false)
        #expect(deflate([], fragments: 1, with: deflater) == [[0x00]])
        _ = deflate(Self.messages[0], fragments: 1, with: deflater)
        #expect(deflate([], fragments: 1, with: deflater) == [[0x00]])
    }
}
