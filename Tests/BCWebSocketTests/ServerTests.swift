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

    @Test("a port already in use is reported, not ignored")
    func portInUse() async throws {
        let first = try await WebSocketServer()
        await #expect(throws: WebSocketServer.StartError.self) {
            _ = try await WebSocketServer(configuration: .init(port: first.port))
        }
        await first.stop()
    }
}
