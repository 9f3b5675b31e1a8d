@testable import BCWebSocket
import Foundation
import Testing
import TestSupport

/// The server reading its own frames, over a raw loopback socket that plays the client byte for byte: what lws
/// could not do (every ping answered, a bad frame closed after the reply to the message before it) and what is new
/// (the upgrade answered here, exact fragments with deflate).
@Suite("WebSocket server: its own frames")
struct ServerOwnFramesTests {
    static let request = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"

    /// A client frame, masked with a fixed non-zero key.
    static func frame(_ payload: [UInt8], opcode: UInt8, final: Bool = true) -> [UInt8] {
        let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        var bytes: [UInt8] = [(final ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            bytes.append(0x80 | UInt8(payload.count))
        } else {
            bytes += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        return bytes + key + payload.enumerated().map { $0.element ^ key[$0.offset & 3] }
    }

    /// Reads from `fd` until `enough` says the bytes suffice, or the socket ends, or 64 KiB came, on a thread of its
    /// own: a blocking read on the tests' cooperative threads would starve the tasks that carry the server's events.
    static func read(_ fd: Int32, until enough: @escaping @Sendable ([UInt8]) -> Bool) async -> [UInt8] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: readBlocking(fd, until: enough)) }
        }
    }

    private static func readBlocking(_ fd: Int32, until enough: ([UInt8]) -> Bool) -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while received.count < 65536, !enough(received) {
            let count = Foundation.read(fd, &chunk, chunk.count)
            guard count > 0 else { break }
            received += chunk[..<count]
        }
        return received
    }

    /// The server's frames after the 101 answer's head: (first header byte, payload), unmasked as a server sends.
    static func frames(in bytes: [UInt8]) -> [(head: UInt8, payload: [UInt8])] {
        guard let end = ClientHandshake.endOfHead(bytes, from: 0) else { return [] }
        var at = end + 4
        var result: [(UInt8, [UInt8])] = []
        while at + 2 <= bytes.count {
            var length = Int(bytes[at + 1] & 0x7F), start = at + 2
            if length == 126, at + 4 <= bytes.count {
                length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
                start = at + 4
            }
            guard start + length <= bytes.count else { break }
            result.append((bytes[at], Array(bytes[start..<start + length])))
            at = start + length
        }
        return result
    }

    private func connect(_ server: WebSocketServer, extra: String = "") throws -> Int32 {
        let fd = try AbandonedUpgradeTests.rawConnection(to: server.port)
        let request = Array((Self.request + extra + "\r\n").utf8)
        #expect(write(fd, request, request.count) == request.count)
        return fd
    }

    @Test("ten pings back to back get ten pongs, in order, each with its payload (Autobahn 2.10)")
    func everyPingAnswered() async throws {
        let server = try await WebSocketServer()
        let fd = try connect(server)
        defer { close(fd) }
        let pings = (0..<10).flatMap { Self.frame(Array("ping \($0)".utf8), opcode: 0x9) }
        #expect(write(fd, pings, pings.count) == pings.count)
        let received = await Self.read(fd) { Self.frames(in: $0).count >= 10 }
        let pongs = Self.frames(in: received)
        #expect(pongs.map(\.head) == Array(repeating: 0x8A, count: 10))
        #expect(pongs.map { String(decoding: $0.payload, as: UTF8.self) } == (0..<10).map { "ping \($0)" })
        await server.stop()
    }

    @Test("a message, then a frame with a reserved bit: the reply to the message goes out before the 1002 close",
          .timeLimit(.minutes(1)))
    func replyBeforeTheFaultClose() async throws {
        let server = try await WebSocketServer()
        // An echo server whose consumer is slow: it answers 1.5 s after the fault was read. The close waits until
        // it asks for the event after the message, by which time its reply is queued.
        let echo = Task {
            for await event in server.events {
                guard case .text(let client, let text) = event else { continue }
                try? await Task.sleep(for: .milliseconds(1500))
                server.send("echo: \(text)", to: client)
            }
        }
        defer { echo.cancel() }
        let fd = try connect(server)
        defer { close(fd) }
        var bad = Self.frame(Array("bad".utf8), opcode: 0x1)
        bad[0] |= 0x20  // RSV2
        let bytes = Self.frame(Array("hello".utf8), opcode: 0x1) + bad
        #expect(write(fd, bytes, bytes.count) == bytes.count)
        let received = await Self.read(fd) { Self.frames(in: $0).contains { $0.head == 0x88 } }
        let frames = Self.frames(in: received)
        #expect(frames.map(\.head) == [0x81, 0x88], "\(frames)")
        #expect(frames.first?.payload == Array("echo: hello".utf8))
        #expect(frames.last?.payload.prefix(2) == [0x03, 0xEA], "close 1002")
        await server.stop()
    }

    @Test("an unmasked frame from a client is a protocol error: close 1002")
    func unmaskedFrame() async throws {
        let server = try await WebSocketServer()
        let fd = try connect(server)
        defer { close(fd) }
        let unmasked: [UInt8] = [0x81, 0x02, 0x68, 0x69]
        #expect(write(fd, unmasked, unmasked.count) == unmasked.count)
        let frames = Self.frames(in: await Self.read(fd) { Self.frames(in: $0).contains { $0.head == 0x88 } })
        #expect(frames.last?.head == 0x88 && frames.last?.payload.prefix(2) == [0x03, 0xEA], "\(frames)")
        await server.stop()
    }

    @Test("a request that is not an upgrade gets 400 with the reason, the socket closes, and it is reported")
    func badRequest() async throws {
        let server = try await WebSocketServer()
        let events = Inbox(server.events)
        let fd = try AbandonedUpgradeTests.rawConnection(to: server.port)
        defer { close(fd) }
        let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        #expect(write(fd, request, request.count) == request.count)
        let answer = String(decoding: await Self.read(fd) { _ in false }, as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(answer)")
        #expect(answer.hasSuffix("\r\n\r\nno Upgrade: websocket header\n"), "\(answer)")
        guard case .abandoned(let peer, _) = try await events.next(within: .seconds(5), "the refused connection") else {
            Issue.record("expected .abandoned")
            return
        }
        #expect(peer.hasPrefix("127.0.0.1:"))
        await server.stop()
    }

    @Test("with deflate agreed, three fragments are three frames on the wire, RSV1 on the first, the message whole",
          arguments: [1, 3])
    func exactFragmentsWithDeflate(fragments: Int) async throws {
        let server = try await WebSocketServer()
        let events = Inbox(server.events)
        let fd = try connect(server, extra: "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n")
        defer { close(fd) }
        guard case .connected(let client) = try await events.next(within: .seconds(5), "the upgrade") else {
            Issue.record("expected .connected")
            return
        }
        let message = String(repeating: "compressible text, ", count: 200)
        server.send(message, to: client, fragments: fragments)
        let received = await Self.read(fd) { Self.frames(in: $0).last.map { $0.head & 0x80 != 0 } ?? false }
        #expect(String(decoding: received, as: UTF8.self)
            .contains("\r\nSec-WebSocket-Extensions: permessage-deflate\r\n"))
        let frames = Self.frames(in: received)
        #expect(frames.count == fragments)
        #expect(frames.first.map { $0.head & 0x4F } == 0x41, "RSV1 and text on the first frame")
        #expect(frames.dropFirst().allSatisfy { $0.head & 0x4F == 0x00 }, "continuations without RSV1")
        let compressed = frames.flatMap(\.payload)
        #expect(compressed.count < message.utf8.count / 10)
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { scratch.deallocate() }
        var inflated: [UInt8] = []
        let outcome = compressed.withUnsafeBytes {
            MessageInflater().inflate($0, endsMessage: true, scratch: scratch) { piece in
                inflated += piece
                return true
            }
        }
        #expect(outcome == .done && inflated == Array(message.utf8))
        await server.stop()
    }
}
