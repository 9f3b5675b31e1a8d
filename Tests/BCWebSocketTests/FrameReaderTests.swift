@testable import BCWebSocket
import Foundation
import Testing

/// The frame reader of both roles, without sockets: frames cut at every byte read the same as whole (a server's
/// reader unmasking them), every rule a peer can break ends the reading, and what it holds stays bounded whatever
/// it is fed.
@Suite("Frame reader")
struct FrameReaderTests {
    /// What the reader made of a stream: data messages joined, control frames, the violation if any.
    private struct Reading: Equatable {
        var messages: [[UInt8]] = []
        var binary: [Bool] = []
        var controls: [[UInt8]] = []
        var announced: [Int] = []
        var violation: String?
    }

    /// Feeds `stream` in chunks of `chunk` bytes (0: whole).
    private func read(_ stream: [UInt8], chunk: Int = 0, deflate: Bool = false, role: FrameReader.Role = .client)
        -> Reading {
        var reader = FrameReader(role: role, deflate: deflate)
        var reading = Reading()
        var current: [UInt8] = []
        let size = chunk == 0 ? max(1, stream.count) : chunk
        var start = 0
        while start < stream.count {
            var piece = Array(stream[start..<min(stream.count, start + size)])
            start += size
            piece.withUnsafeMutableBytes { bytes in
                var offset = 0
                while let event = reader.next(in: bytes, at: &offset) {
                    switch event {
                    case .dataFrame(let announced): reading.announced.append(announced)
                    case .payload(let slice, let endsMessage):
                        current.append(contentsOf: slice)
                        if endsMessage {
                            reading.messages.append(current)
                            reading.binary.append(reader.messageIsBinary)
                            current = []
                        }
                    case .control(let opcode, let payload): reading.controls.append([opcode] + payload)
                    case .violation(let what): reading.violation = what
                    }
                }
                #expect(offset == bytes.count || reading.violation != nil, "bytes left unread without a violation")
            }
        }
        return reading
    }

    /// A frame: FIN, RSV1, opcode, then the length in its shortest form; masked with `key` (a client's frame) when
    /// there is one, else with a zero key when `masked`.
    static func frame(_ payload: [UInt8], opcode: UInt8 = 1, final: Bool = true, rsv1: Bool = false,
                      masked: Bool = false, key: [UInt8]? = nil) -> [UInt8] {
        let masked = masked || key != nil
        var bytes: [UInt8] = [(final ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | opcode]
        let mask: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            bytes.append(mask | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [mask | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(mask | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: payload.count >> shift)) }
        }
        guard masked else { return bytes + payload }
        let key = key ?? [0, 0, 0, 0]
        return bytes + key + payload.enumerated().map { $0.element ^ key[$0.offset & 3] }
    }

    /// The client's frames of `stream`'s messages: the same frames, each masked with its own key.
    private static let clientKey: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]

    private static func clientStream() -> [UInt8] {
        let long = Array(String(repeating: "x", count: 300).utf8)
        let huge = Array(String(repeating: "y", count: 70_000).utf8)
        let k = clientKey
        return frame(Array("MSG\tk\t{\"t\":1}".utf8), key: k)
            + frame([9, 8], opcode: 0x9, key: [1, 2, 3, 4])
            + frame(Array("frag".utf8), final: false, key: k) + frame([], opcode: 0xA, key: k)
            + frame(Array("mented".utf8), opcode: 0, key: [0xFF, 0, 0x80, 7])
            + frame(long, opcode: 2, key: k) + frame([], key: k) + frame(huge, key: [9, 9, 9, 9])
    }

    private static let stream: [UInt8] = {
        let long = Array(String(repeating: "x", count: 300).utf8)
        let huge = Array(String(repeating: "y", count: 70_000).utf8)
        return frame(Array("MSG\tk\t{\"t\":1}".utf8))
            + frame([9, 8], opcode: 0x9)
            + frame(Array("frag".utf8), final: false) + frame([], opcode: 0xA) + frame(Array("mented".utf8), opcode: 0)
            + frame(long, opcode: 2) + frame([]) + frame(huge)
    }()

    @Test("a stream cut at any size reads the same as whole; a server's reader unmasks it",
          arguments: [FrameReader.Role.client, .server], [0, 1, 2, 3, 5, 7, 126, 4096])
    func cutAnywhere(role: FrameReader.Role, chunk: Int) {
        let reading = read(role == .client ? Self.stream : Self.clientStream(), chunk: chunk, role: role)
        #expect(reading.violation == nil)
        #expect(reading.messages.map(\.count) == [13, 10, 300, 0, 70_000])
        #expect(reading.messages[1] == Array("fragmented".utf8))
        #expect(reading.binary == [false, false, true, false, false])
        #expect(reading.controls == [[0x9, 9, 8], [0xA]])
        #expect(reading.announced == [13, 4, 6, 300, 0, 70_000])
    }

    @Test("every rule a server can break ends the reading", arguments: [
        ("masked", frame([1], masked: true), "the server masked"),
        ("rsv2", [0xA1, 0x00], "reserved"),
        ("rsv1 without deflate", frame([1], rsv1: true), "RSV1"),
        ("opcode 3", frame([1], opcode: 3), "opcode 3"),
        ("opcode 0xB", frame([], opcode: 0xB), "opcode 11"),
        ("fragmented ping", frame([], opcode: 0x9, final: false), "fragmented control"),
        ("126-byte ping", frame([UInt8](repeating: 0, count: 126), opcode: 0x9), "126 bytes"),
        ("continuation first", frame([1], opcode: 0), "continuation"),
        ("text inside fragments", frame([1], final: false) + frame([2]), "inside a fragmented"),
        ("top length bit", [0x81, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0], "top bit"),
    ] as [(String, [UInt8], String)])
    func violations(name: String, bytes: [UInt8], says: String) {
        for chunk in [0, 1] {
            let reading = read(bytes + Self.frame(Array("after".utf8)), chunk: chunk)
            #expect(reading.violation?.contains(says) == true, "\(name): \(String(describing: reading.violation))")
            #expect(!reading.messages.contains(Array("after".utf8)), "\(name): read on after the violation")
        }
    }

    @Test("every rule a client can break ends a server's reading, an unmasked frame first", arguments: [
        ("unmasked", frame([1]), "unmasked"),
        ("unmasked ping", frame([], opcode: 0x9), "unmasked"),
        ("rsv2", [0xA1, 0x80, 1, 2, 3, 4], "reserved"),
        ("rsv1 without deflate", frame([1], rsv1: true, key: clientKey), "RSV1"),
        ("opcode 3", frame([1], opcode: 3, key: clientKey), "opcode 3"),
        ("fragmented ping", frame([], opcode: 0x9, final: false, key: clientKey), "fragmented control"),
        ("126-byte ping", frame([UInt8](repeating: 0, count: 126), opcode: 0x9, key: clientKey), "126 bytes"),
        ("continuation first", frame([1], opcode: 0, key: clientKey), "continuation"),
        ("top length bit", [0x81, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4], "top bit"),
    ] as [(String, [UInt8], String)])
    func serverViolations(name: String, bytes: [UInt8], says: String) {
        for chunk in [0, 1] {
            let reading = read(bytes + Self.frame(Array("after".utf8), key: Self.clientKey), chunk: chunk, role: .server)
            #expect(reading.violation?.contains(says) == true, "\(name): \(String(describing: reading.violation))")
            #expect(!reading.messages.contains(Array("after".utf8)), "\(name): read on after the violation")
        }
    }

    @Test("a server's reader unmasks in place: the payload is the chunk's own bytes, unmasked")
    func unmasksInPlace() {
        var bytes = Self.frame(Array("hello, masked world".utf8), key: Self.clientKey)
        var reader = FrameReader(role: .server, deflate: false)
        bytes.withUnsafeMutableBytes { chunk in
            var offset = 0
            #expect(reader.next(in: chunk, at: &offset) == .dataFrame(announced: 19))
            guard case .payload(let slice, true) = reader.next(in: chunk, at: &offset) else {
                Issue.record("no payload")
                return
            }
            #expect(slice.baseAddress == UnsafeRawPointer(chunk.baseAddress! + 6), "the payload was copied")
            #expect(Array(slice) == Array("hello, masked world".utf8))
        }
    }

    @Test("masking in pieces cut anywhere is masking whole", arguments: [1, 3, 5, 8, 13])
    func maskInPieces(piece: Int) {
        let original = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var whole = original
        whole.withUnsafeMutableBytes { _ = FrameMask.apply(0xA1B2_C3D4, to: $0) }
        var pieces = original
        pieces.withUnsafeMutableBytes { buffer in
            var key: UInt32 = 0xA1B2_C3D4
            var start = 0
            while start < buffer.count {
                let end = min(buffer.count, start + piece)
                key = FrameMask.apply(key, to: UnsafeMutableRawBufferPointer(rebasing: buffer[start..<end]))
                start = end
            }
        }
        #expect(pieces == whole)
        #expect(whole.enumerated().allSatisfy { $0.element == original[$0.offset] ^ [0xD4, 0xC3, 0xB2, 0xA1][$0.offset & 3] })
    }

    @Test("with deflate agreed, RSV1 marks a message compressed, and only its first frame")
    func compressedFlag() {
        var reader = FrameReader(role: .client, deflate: true)
        var bytes = Self.frame([1, 2], final: false, rsv1: true) + Self.frame([3], opcode: 0)
        bytes.withUnsafeMutableBytes { chunk in
            var offset = 0
            #expect(reader.next(in: chunk, at: &offset) == .dataFrame(announced: 2))
            #expect(reader.messageIsCompressed)
        }
        #expect(read(Self.frame([1], final: false) + Self.frame([2], opcode: 0, rsv1: true), deflate: true)
            .violation?.contains("RSV1") == true)
    }

    @Test("a frame announcing 2^62 bytes is announced, never allocated: payload passes through as slices")
    func hugeAnnouncement() {
        var header: [UInt8] = [0x81, 0x7F]
        for shift in stride(from: 56, through: 0, by: -8) { header.append(UInt8(truncatingIfNeeded: (1 << 62) >> shift)) }
        var reader = FrameReader(role: .client, deflate: false)
        var trickle = header + [UInt8](repeating: 0x61, count: 1000)
        trickle.withUnsafeMutableBytes { chunk in
            var offset = 0
            #expect(reader.next(in: chunk, at: &offset) == .dataFrame(announced: 1 << 62))
            guard case .payload(let slice, let ends) = reader.next(in: chunk, at: &offset) else {
                Issue.record("no payload")
                return
            }
            #expect(slice.count == 1000 && !ends)
            #expect(slice.baseAddress == UnsafeRawPointer(chunk.baseAddress! + 10), "the payload was copied")
        }
        #expect(reader.remainingInFrame == (1 << 62) - 1000)
        #expect(reader.isInsideMessage)
    }

    @Test("a megabyte of 125-byte pings fed a byte at a time: each read whole, none held beyond its own")
    func manyControlFrames() {
        let ping = Self.frame([UInt8](repeating: 7, count: 125), opcode: 0x9)
        let stream = Array((0..<8_000).map { _ in ping }.joined())
        let reading = read(stream, chunk: 1)
        #expect(reading.controls.count == 8_000)
        #expect(reading.violation == nil)
    }
}
