@testable import BCWebSocket
import Testing
import TestSupport

@Suite("Reassembly and framing, without sockets")
struct MessageAssemblerTests {
    private func feed(_ assembler: inout MessageAssembler, _ text: String, final: Bool, binary: Bool = false)
        -> MessageAssembler.Outcome {
        Array(text.utf8).withUnsafeBytes { assembler.append($0, final: final, binary: binary) }
    }

    @Test("chunks join into one message; the next chunk starts a new one")
    func joins() {
        var assembler = MessageAssembler(limit: 100)
        #expect(feed(&assembler, "MSG\t", final: false) == .partial)
        #expect(feed(&assembler, "key\t{}", final: true) == .message(binary: false, bytes: Array("MSG\tkey\t{}".utf8)))
        #expect(feed(&assembler, "ACK", final: true) == .message(binary: false, bytes: Array("ACK".utf8)))
        #expect(feed(&assembler, "", final: true, binary: true) == .message(binary: true, bytes: []))
    }

    @Test("a message refused ahead (its frame announced too much) drops what follows of it; the next is whole")
    func refusedAhead() {
        var assembler = MessageAssembler(limit: 10)
        #expect(feed(&assembler, "1234", final: false) == .partial)
        #expect(assembler.heldBytes == 4)
        let (held, prefix) = assembler.refuseAhead()
        #expect(held == 4 && prefix == Array("1234".utf8))
        #expect(assembler.isDiscarding && assembler.heldBytes == 0)
        #expect(feed(&assembler, "56789", final: false) == .discarding(received: 9))
        #expect(feed(&assembler, "0", final: true) == .discarding(received: 10))
        #expect(!assembler.isDiscarding)
        #expect(feed(&assembler, "next", final: true) == .message(binary: false, bytes: Array("next".utf8)))
    }

    @Test("the cap counts the whole message, not one chunk")
    func caps() {
        var assembler = MessageAssembler(limit: 10)
        #expect(feed(&assembler, "123456", final: false) == .partial)
        #expect(feed(&assembler, "78901", final: true)
            == .tooBig(limit: 10, binary: false, received: 11, prefix: Array("12345678901".utf8)))
        #expect(feed(&assembler, "1234567890", final: true) == .message(binary: false, bytes: Array("1234567890".utf8)))
    }

    @Test("the rest of a message too big is counted and dropped, never held; the next message is whole")
    func discardsTheRest() {
        var assembler = MessageAssembler(limit: 10)
        #expect(feed(&assembler, "12345678901", final: false, binary: true)
            == .tooBig(limit: 10, binary: true, received: 11, prefix: Array("12345678901".utf8)))
        #expect(feed(&assembler, String(repeating: "x", count: 1000), final: false) == .discarding(received: 1011))
        #expect(feed(&assembler, "yz", final: true) == .discarding(received: 1013))
        #expect(feed(&assembler, "ACK", final: true) == .message(binary: false, bytes: Array("ACK".utf8)))
    }

    @Test("a refused message keeps at most its first 64 KiB for the recording")
    func keepsAPrefix() {
        var assembler = MessageAssembler(limit: 100_000)
        #expect(feed(&assembler, String(repeating: "a", count: 90_000), final: false) == .partial)
        guard case .tooBig(_, _, let received, let prefix) = feed(&assembler, String(repeating: "b", count: 20_000),
                                                                  final: false) else {
            Issue.record("expected tooBig")
            return
        }
        #expect(received == 110_000)
        #expect(prefix.count == MessageAssembler.keptPrefix)
        #expect(prefix.allSatisfy { $0 == UInt8(ascii: "a") })
    }

    @Test("fragments split byte for byte, only the last has FIN")
    func frames() {
        let bytes = Array("Grüße".utf8) // 7 bytes
        let frames = ServiceSession.frames(of: bytes, binary: false, fragments: 3)
        #expect(frames.map(\.bytes).flatMap { $0 } == bytes)
        #expect(frames.map(\.bytes.count) == [3, 3, 1])
        // The first byte of each header: FIN (0x80) only on the last, the opcode (text 0x1) only on the first.
        #expect(frames.map(\.head) == [0x01, 0x00, 0x80])
        #expect(ServiceSession.frames(of: bytes, binary: true, fragments: 1).map(\.head) == [0x82])
        #expect(ServiceSession.frames(of: [], binary: false, fragments: 4).count == 1)
        #expect(ServiceSession.frames(of: [1, 2], binary: false, fragments: 9).count == 2)
    }

    @Test("ping and hangup become lws seconds, hangup above ping")
    func validity() {
        var configuration = WebSocketClientConfiguration()
        #expect(configuration.validitySeconds == (30, 60))
        configuration.pingInterval = .milliseconds(1500)
        configuration.hangupAfterSilence = .seconds(1)
        #expect(configuration.validitySeconds == (2, 3))
    }

    @Test("only codes an endpoint may send go on the wire")
    func closeCodes() {
        #expect(ServiceCore.sendableCloseCode(1000) == 1000)
        #expect(ServiceCore.sendableCloseCode(4001) == 4001)
        #expect(ServiceCore.sendableCloseCode(1006) == 1000)
        #expect(ServiceCore.sendableCloseCode(999) == 1000)
        #expect(String(ServiceCore.truncatedUTF8(String(repeating: "é", count: 100), maxBytes: 123)) == String(repeating: "é", count: 61))
    }
}

@Suite("Reassembly refuses bad UTF-8 at its first bad chunk")
struct MessageAssemblerUTF8Tests {
    private func feed(_ assembler: inout MessageAssembler, _ bytes: [UInt8], final: Bool, binary: Bool = false)
        -> MessageAssembler.Outcome {
        bytes.withUnsafeBytes { assembler.append($0, final: final, binary: binary) }
    }

    @Test("a text message goes wrong in its second fragment: refused there, its rest dropped, the next is whole")
    func failsFast() {
        var assembler = MessageAssembler(limit: 100)
        let greek = Array("κόσμε".utf8)
        #expect(feed(&assembler, greek, final: false) == .partial)
        #expect(feed(&assembler, [0xED, 0xA0, 0x80], final: false)
            == .invalidUTF8(received: greek.count + 3, prefix: greek + [0xED, 0xA0, 0x80]))
        #expect(feed(&assembler, Array("edited".utf8), final: true) == .discarding(received: greek.count + 9))
        #expect(feed(&assembler, Array("ok".utf8), final: true) == .message(binary: false, bytes: Array("ok".utf8)))
    }

    @Test("a character split between fragments is whole; one left cut at the end is refused")
    func splitCharacter() {
        var assembler = MessageAssembler(limit: 100)
        #expect(feed(&assembler, [0xE2, 0x82], final: false) == .partial)
        #expect(feed(&assembler, [0xAC], final: true) == .message(binary: false, bytes: [0xE2, 0x82, 0xAC]))
        #expect(feed(&assembler, [0x41, 0xE2, 0x82], final: true)
            == .invalidUTF8(received: 3, prefix: [0x41, 0xE2, 0x82]))
    }

    @Test("binary messages are not checked")
    func binaryUnchecked() {
        var assembler = MessageAssembler(limit: 100)
        #expect(feed(&assembler, [0xFF, 0xED], final: true, binary: true) == .message(binary: true, bytes: [0xFF, 0xED]))
    }
}
