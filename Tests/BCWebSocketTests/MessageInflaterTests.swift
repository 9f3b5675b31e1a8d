@testable import BCWebSocket
import Foundation
import Testing

/// permessage-deflate's inflating, without sockets: messages compressed by Python's zlib (raw deflate, sync flush,
/// the 4-byte tail taken off as RFC 7692 says) come back whole, and a bomb inflates no further than the caller lets it.
@Suite("Message inflater")
struct MessageInflaterTests {
    /// `python3 -c` compressing each argument ("zeros:N": N zeros) with one compressor (context taken over), hex per message.
    private static func compressed(_ messages: [String], reset: Bool = false) throws -> [[UInt8]] {
        let script = """
        import sys, zlib
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        for m in sys.argv[1:]:
            if m.startswith("zeros:"): m = "0" * int(m[6:])
            if \(reset ? "True" : "False"): c = zlib.compressobj(9, zlib.DEFLATED, -15)
            data = c.compress(m.encode()) + c.flush(zlib.Z_SYNC_FLUSH)
            assert data.endswith(b"\\x00\\x00\\xff\\xff")
            print(data[:-4].hex())
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + messages
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map { line in
            stride(from: 0, to: line.count, by: 2).map { index in
                let start = line.index(line.startIndex, offsetBy: index)
                return UInt8(line[start..<line.index(start, offsetBy: 2)], radix: 16)!
            }
        }
    }

    private func inflate(_ inflater: MessageInflater, _ message: [UInt8], piece: Int, cap: Int = .max)
        -> (MessageInflater.Outcome, [UInt8]) {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 16)
        defer { scratch.deallocate() }
        var out: [UInt8] = []
        var outcome = MessageInflater.Outcome.done
        var start = 0
        repeat {
            let end = min(message.count, start + piece)
            outcome = Array(message[start..<end]).withUnsafeBytes { chunk in
                inflater.inflate(chunk, endsMessage: end == message.count, scratch: scratch) { bytes in
                    out.append(contentsOf: bytes)
                    return out.count <= cap
                }
            }
            start = end
        } while start < message.count && outcome == .done
        return (outcome, out)
    }

    @Test("messages of one stream come back whole, in pieces of any size", arguments: [1, 7, 100_000])
    func roundTrip(piece: Int) throws {
        let texts = ["MSG\tk\t{\"t\":1,\"cm\":\"hello\"}", String(repeating: "abc", count: 5_000), "", "MSG\tk\t{\"t\":1}"]
        for reset in [false, true] {
            let inflater = MessageInflater()
            for (text, message) in zip(texts, try Self.compressed(texts, reset: reset)) {
                let (outcome, out) = inflate(inflater, message, piece: piece)
                #expect(outcome == .done)
                #expect(String(decoding: out, as: UTF8.self) == text)
            }
        }
    }

    @Test("a 30 KB frame that inflates to 30 MB stops at the cap")
    func bomb() throws {
        let bomb = try #require(try Self.compressed(["zeros:30000000"]).first)
        #expect(bomb.count < 40_000)
        let (outcome, out) = inflate(MessageInflater(), bomb, piece: 4096, cap: 1 << 20)
        #expect(outcome == .stopped)
        #expect(out.count <= (1 << 20) + 1024)
    }

    @Test("bytes that are not deflate fail with zlib's words")
    func corrupt() {
        let (outcome, _) = inflate(MessageInflater(), [0xFF, 0xFF, 0xFF, 0xFF, 0x00], piece: 5)
        guard case .corrupt(let words) = outcome else {
            Issue.record("garbage inflated: \(outcome)")
            return
        }
        #expect(!words.isEmpty)
    }

    /// The drill's "110 B a message, never levelling off" (500 lives at 1 message/s for 3 minutes): zlib's window
    /// being written, 32 KiB a connection. What zlib holds is made at the first message and never grows, through
    /// 2,000 messages of one stream (more than 160 KiB of text: the window wrapped five times).
    @Test("zlib's memory is made once, about 40 KiB, and stays put whatever the messages", arguments: [false, true])
    func memoryBounded(reset: Bool) throws {
        let texts = (1...2_000).map { index in
            #"MSG\#tdrill:\#(index % 7)\#t{"t":1,"u":"\#(100_000_000 + index)","ac":"viewer\#(index)","cm":"comment \#(index)","lci":"\#(index)"}"#
        }
        let messages = try Self.compressed(texts, reset: reset)
        try #require(messages.count == texts.count)
        let inflater = MessageInflater()
        #expect(inflater.zlibBytes == 0)
        var held: [Int] = []
        var inflated = 0
        for (text, message) in zip(texts, messages) {
            let (outcome, out) = inflate(inflater, message, piece: 4096)
            #expect(outcome == .done)
            #expect(out.count == text.utf8.count)
            inflated += out.count
            held.append(inflater.zlibBytes)
        }
        #expect(inflated > 5 * 32 * 1024)
        let first = try #require(held.first)
        #expect(first >= 32 * 1024 && first <= 48 * 1024, "zlib's state and window: \(first) bytes")
        #expect(held.allSatisfy { $0 == first }, "zlib's memory changed: from \(first) to \(held.max()!) bytes")
    }
}
