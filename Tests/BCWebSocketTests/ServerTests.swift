import BCWebSocket
import Foundation
import Testing
import TestSupport

/// The server side (what the replay tool serves with), against a Python websockets client, and
/// against the binding's own client for the faults only it can inject.
@Suite("WebSocket server")
struct ServerTests {
    @Test("Python clients connect, send text and receive fragmented messages reassembled")
    func pythonClients() async throws {
        let server = try await WebSocketServer()
        #expect(server.port > 0)
        let events = Inbox(server.events)
        let url = "ws://127.0.0.1:\(server.port)/"

        // Without compression every frame goes out as sent: the peer counts them.
        let plain = try PeerProcess.python(.webSocket, "client", [url, "plain"])
        defer { plain.stop() }
        guard case .connected(let first) = try await events.next(within: .seconds(10), "the plain Python client") else {
            Issue.record("expected .connected")
            return
        }
        #expect(try await events.next() == .text(first, "hello from python"))
        #expect(try await plain.report("extensions=") == "extensions=none")
        server.send("alpha|beta|gamma", to: first, fragments: 3)
        let three = try await plain.report("received")
        #expect(three == "received fragments=3 text=alpha|beta|gamma")
        // Split byte for byte: frame edges fall inside multi-byte characters, which is legal.
        server.send("Grüße, 世界", to: first, fragments: 5)
        let five = try await plain.report("received")
        #expect(five == "received fragments=5 text=Grüße, 世界")
        #expect(try await events.next() == .disconnected(first))
        _ = try await plain.report("done")

        // With permessage-deflate negotiated the message still arrives whole and equal; lws
        // compresses non-final fragments without flushing, so zlib decides the frame count.
        let deflating = try PeerProcess.python(.webSocket, "client", [url])
        defer { deflating.stop() }
        guard case .connected(let second) = try await events.next(within: .seconds(10), "the deflating Python client") else {
            Issue.record("expected .connected")
            return
        }
        #expect(try await events.next() == .text(second, "hello from python"))
        #expect(try await deflating.report("extensions=") == "extensions=permessage-deflate")
        let long = String(repeating: "replayed gift ", count: 500)
        server.send(long, to: second, fragments: 4)
        let whole = try await deflating.report("received")
        #expect(whole.hasSuffix(" text=" + long))
        server.send("tail", to: second)
        #expect(try await deflating.report("received") == "received fragments=1 text=tail")
        #expect(try await events.next() == .disconnected(second))

        await server.stop()
        #expect(try await events.next() == nil)
    }

    @Test("closing a client from the server reaches our client as a peer close")
    func serverCloseReachesClient() async throws {
        let server = try await WebSocketServer()
        let serverEvents = Inbox(server.events)
        let loop = WebSocketLoop(name: "BCWebSocketTests.server-close")
        let url = try #require(WebSocketURL(string: "ws://127.0.0.1:\(server.port)/"))
        let connection = loop.connect(to: url)
        let clientEvents = Inbox(connection.events)

        #expect(try await clientEvents.next() == .upgrading)

        #expect(try await clientEvents.next() == .opened)
        guard case .connected(let client) = try await serverEvents.next() else {
            Issue.record("expected .connected")
            return
        }
        connection.send("ping?")
        #expect(try await serverEvents.next() == .text(client, "ping?"))
        server.send("big and split", to: client, fragments: 13)
        #expect(try await clientEvents.next() == .text("big and split"))

        server.close(client, code: 4001, reason: "replay finished")
        #expect(try await clientEvents.next() == .closed(.init(
            code: 4001, text: "replay finished", initiatedLocally: false, cause: .peerClosed)))
        #expect(try await serverEvents.next() == .disconnected(client))
        await loop.shutdown()
        await server.stop()
    }

    @Test("a handler connection gets every message of a burst in order, then the close, and nothing after")
    func handlerConnectionBurst() async throws {
        let server = try await WebSocketServer()
        let serverEvents = Inbox(server.events)
        let loop = WebSocketLoop(name: "BCWebSocketTests.handler")
        let url = try #require(WebSocketURL(string: "ws://127.0.0.1:\(server.port)/"))
        let received = Inbox<WebSocketEvent>()
        let link = loop.connect(to: url) { event in received.push(event) }

        #expect(try await received.next() == .upgrading)

        #expect(try await received.next() == .opened)
        guard case .connected(let client) = try await serverEvents.next() else {
            Issue.record("expected .connected")
            return
        }
        link.send("ready")
        #expect(try await serverEvents.next() == .text(client, "ready"))
        // A burst far larger than the socket buffers: its tail must come without any later traffic.
        let burst = (0..<5_000).map { "message \($0) " + String(repeating: "x", count: $0 % 300) }
        for text in burst { server.send(text, to: client) }
        server.close(client, code: 4002, reason: "burst sent")
        for (index, text) in burst.enumerated() {
            let event = try await received.next(within: .seconds(10), "message \(index) of the burst")
            guard event == .text(text) else {
                Issue.record("message \(index): expected the burst's text, got \(String(describing: event))")
                return
            }
        }
        #expect(try await received.next() == .closed(.init(
            code: 4002, text: "burst sent", initiatedLocally: false, cause: .peerClosed)))
        await loop.shutdown()
        await server.stop()
        received.finish()
        #expect(try await received.next() == nil)
    }

    @Test("without an extension the server frames bursts itself: every header length, fragments, all in order")
    func selfFramedBurst() async throws {
        // No permessage-deflate offered: the server writes many frames per lws_write, with headers it makes.
        let server = try await WebSocketServer()
        let serverEvents = Inbox(server.events)
        let loop = WebSocketLoop(name: "BCWebSocketTests.self-framed")
        let url = try #require(WebSocketURL(string: "ws://127.0.0.1:\(server.port)/"))
        var configuration = WebSocketClientConfiguration()
        configuration.permessageDeflate = false
        configuration.maxMessageSize = 4 << 20
        let received = Inbox<WebSocketEvent>()
        let link = loop.connect(to: url, configuration: configuration) { event in received.push(event) }
        #expect(try await received.next() == .upgrading)
        #expect(try await received.next() == .opened)
        guard case .connected(let client) = try await serverEvents.next() else {
            Issue.record("expected .connected")
            return
        }
        link.send("ready")
        #expect(try await serverEvents.next() == .text(client, "ready"))
        // Payload lengths on both sides of each header form (7-bit, 16-bit, 64-bit) and of the write limit,
        // between runs of small frames that are written together.
        let sizes = [0, 1, 125, 126, 127, 65_535, 65_536, 65_537, 64 * 1024 - 10, 200_000, 1_000_000]
        var sent: [WebSocketEvent] = []
        for (index, size) in sizes.enumerated() {
            for small in 0..<50 {
                let text = "small \(index).\(small)"
                server.send(text, to: client)
                sent.append(.text(text))
            }
            let text = String(repeating: String(UnicodeScalar(UInt8(97 + index % 26))), count: size)
            server.send(text, to: client)
            sent.append(.text(text))
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            server.send(bytes, to: client)
            sent.append(.binary(bytes))
        }
        // Several at once, counted at once.
        let batch = (0..<100).map { Array("batched \($0)".utf8) }
        // Counted before the loop's thread sees any of it.
        #expect(server.send(texts: batch, to: client) >= batch.reduce(0) { $0 + $1.count })
        sent += batch.map { .text(String(decoding: $0, as: UTF8.self)) }
        // Fragmented, between whole frames.
        server.send("split in seven", to: client, fragments: 7)
        sent.append(.text("split in seven"))
        server.send("after", to: client)
        sent.append(.text("after"))
        server.close(client, code: 4003, reason: "done")
        for (index, expected) in sent.enumerated() {
            let event = try await received.next(within: .seconds(10), "message \(index) of \(sent.count)")
            guard event == expected else {
                Issue.record("message \(index): expected \(String(describing: expected).prefix(80)), got \(String(describing: event).prefix(80))")
                return
            }
        }
        #expect(try await received.next() == .closed(.init(
            code: 4003, text: "done", initiatedLocally: false, cause: .peerClosed)))
        await loop.shutdown()
        await server.stop()
    }

    @Test("a stalled client answers no pings, so our client drops it for silence")
    func stallFault() async throws {
        let server = try await WebSocketServer()
        let serverEvents = Inbox(server.events)
        let loop = WebSocketLoop(name: "BCWebSocketTests.stall")
        var configuration = WebSocketClientConfiguration()
        configuration.pingInterval = .seconds(1)
        configuration.hangupAfterSilence = .seconds(2)
        let url = try #require(WebSocketURL(string: "ws://127.0.0.1:\(server.port)/"))
        let connection = loop.connect(to: url, configuration: configuration)
        let clientEvents = Inbox(connection.events)

        #expect(try await clientEvents.next() == .upgrading)

        #expect(try await clientEvents.next() == .opened)
        guard case .connected(let client) = try await serverEvents.next() else {
            Issue.record("expected .connected")
            return
        }
        server.stall(client)
        let event = try await clientEvents.next(within: .seconds(6), "the silence hangup")
        guard case .closed(let reason) = event else {
            Issue.record("expected .closed, got \(String(describing: event))")
            return
        }
        #expect(reason.cause == .silence(after: .seconds(2)))
        await loop.shutdown()
        await server.stop()
    }

    @Test("a port already in use is reported with the reason, not ignored")
    func portInUse() async throws {
        let first = try await WebSocketServer()
        let error = await #expect(throws: WebSocketServer.StartError.self) {
            _ = try await WebSocketServer(configuration: .init(port: first.port))
        }
        #expect(error?.description == "could not listen on 127.0.0.1:\(first.port): port \(first.port) on 127.0.0.1 is already in use by another process")
        await first.stop()
    }

    @Test("an address that is not this machine's is reported as such")
    func foreignAddress() async throws {
        let error = await #expect(throws: WebSocketServer.StartError.self) {
            _ = try await WebSocketServer(configuration: .init(host: "192.0.2.1", port: 0))
        }
        #expect(error?.description.hasSuffix("192.0.2.1 is not an address of this machine") == true, "\(String(describing: error))")
    }
}

/// Connections that never become WebSocket clients: each is reported once, with where it came from, and none
/// holds the server.
@Suite("WebSocket server: connections that never upgrade")
struct AbandonedUpgradeTests {
    /// A TCP connection to the server on loopback, as a hostile client would open it.
    static func rawConnection(to port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(connected == 0, "connect to 127.0.0.1:\(port) failed")
        return fd
    }

    private static func localPort(of fd: Int32) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    @Test("a client that hangs up in the middle of its request is reported with its address and port")
    func hangUpMidRequest() async throws {
        let server = try await WebSocketServer()
        let events = Inbox(server.events)
        let fd = try Self.rawConnection(to: server.port)
        let port = Self.localPort(of: fd)
        let partial = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)
        #expect(write(fd, partial, partial.count) == partial.count)
        close(fd)
        guard case .abandoned(let peer, _) = try await events.next(within: .seconds(5), "the abandoned connection")
        else {
            Issue.record("expected .abandoned")
            return
        }
        #expect(peer == "127.0.0.1:\(port)")
        await server.stop()
        #expect(try await events.next() == nil, "one report per connection, no ClientID event")
    }

    @Test("a client too slow to finish its upgrade is dropped after the handshake timeout and reported")
    func tooSlow() async throws {
        let server = try await WebSocketServer(configuration: WebSocketServerConfiguration(handshakeTimeout: .seconds(1)))
        let events = Inbox(server.events)
        let fd = try Self.rawConnection(to: server.port)
        defer { close(fd) }
        let partial = Array("GET / HTTP/1.1\r\n".utf8)
        #expect(write(fd, partial, partial.count) == partial.count)
        guard case .abandoned(_, let after) = try await events.next(within: .seconds(10), "the slow connection")
        else {
            Issue.record("expected .abandoned")
            return
        }
        #expect(after >= .milliseconds(900) && after < .seconds(5), "dropped after \(after), timeout 1 s")
        var byte: UInt8 = 0
        #expect(read(fd, &byte, 1) <= 0, "the server closed the socket")
        await server.stop()
    }
}

@Suite("WebSocket server: a frame announced larger than the cap")
struct AnnouncedOversizeTests {
    @Test("a client announcing a 2^62-byte frame and trickling it is refused within seconds, not when the buffer fills")
    func trickledGiant() async throws {
        let server = try await WebSocketServer()
        let events = Inbox(server.events)
        let fd = try AbandonedUpgradeTests.rawConnection(to: server.port)
        defer { close(fd) }
        let request = Array(("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)
        #expect(write(fd, request, request.count) == request.count)
        guard case .connected(let client) = try await events.next(within: .seconds(5), "the upgrade") else {
            Issue.record("expected .connected")
            return
        }
        // FIN + text, masked, 64-bit length 2^62, a zero mask, then 8 bytes of it.
        var header: [UInt8] = [0x81, 0xFF, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        header += Array("MSG\tk\t{".utf8)
        #expect(write(fd, header, header.count) == header.count)
        let started = ContinuousClock.now
        guard case .refused(client, let refused) = try await events.next(within: .seconds(5), "the refusal") else {
            Issue.record("expected .refused")
            return
        }
        // Refused by the one-second sweep, not when a buffer fills.
        #expect(ContinuousClock.now - started < .seconds(4))
        #expect(refused.reason == .tooBig(limit: 1 << 20))
        #expect(refused.size >= 1 << 62 - 16)
        // Then the close: this client never answers it, so the TCP connection goes after `closeAnswerDeadline`.
        #expect(try await events.next(within: .seconds(5), "the close") == .disconnected(client))
        await server.stop()
    }
}

@Suite("WebSocket server: text that is not UTF-8")
struct ServerInvalidUTF8Tests {
    @Test("a bad byte in a message's second fragment closes with 1007 there, and is reported as refused")
    func failsFast() async throws {
        let server = try await WebSocketServer()
        let events = Inbox(server.events)
        let fd = try AbandonedUpgradeTests.rawConnection(to: server.port)
        defer { close(fd) }
        let request = Array(("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)
        #expect(write(fd, request, request.count) == request.count)
        guard case .connected(let client) = try await events.next(within: .seconds(5), "the upgrade") else {
            Issue.record("expected .connected")
            return
        }
        // Masked with a zero key: a text frame without FIN, then a continuation whose first bytes are a surrogate.
        // The message never ends: only a check that fails fast can refuse it.
        let greek = Array("κόσμε".utf8)
        let second = [0xED, 0xA0, 0x80] + Array("edit".utf8) + [0x20, 0x20]
        let frames = [0x01, 0x80 | UInt8(greek.count), 0, 0, 0, 0] + greek + [0x00, 0x80 | 9, 0, 0, 0, 0] + second
        #expect(write(fd, frames, frames.count) == frames.count)
        // The 101 answer, then the close frame: 1007 "invalid UTF-8", answered (the close is reported once the
        // handshake ends).
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        let closeFrame: [UInt8] = [0x88, 0x0F, 0x03, 0xEF] + Array("invalid UTF-8".utf8)
        while received.count < 4096, !received.contains(closeFrame) {
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else { break }
            received += chunk[..<count]
        }
        #expect(received.contains(closeFrame), "a close frame with 1007")
        let answer: [UInt8] = [0x88, 0x82, 0, 0, 0, 0, 0x03, 0xEF]
        #expect(write(fd, answer, answer.count) == answer.count)
        guard case .refused(client, let refused) = try await events.next(within: .seconds(5), "the refusal") else {
            Issue.record("expected .refused")
            return
        }
        #expect(refused.reason == .invalidUTF8 && !refused.binary)
        #expect(refused.prefix == greek + second)  // what was read, up to the chunk with the bad byte
        #expect(try await events.next(within: .seconds(5), "the close") == .disconnected(client))
        await server.stop()
    }
}
