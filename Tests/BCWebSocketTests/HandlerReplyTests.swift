import BCWebSocket
import Synchronization
import Testing
import TestSupport

/// A handler that answers on its own link, from the loop's thread: Autobahn's echo client does it for every
/// message. The peer waits for each answer before it sends the next message, so one answer lost (a send queued
/// from a callback that never gets written, or a first message that comes before the caller has the link) stalls
/// the exchange instead of going unnoticed.
@Suite("Replies from the event handler", .timeLimit(.minutes(1)))
struct HandlerReplyTests {
    @Test("every message is answered from the handler, the first one too, in a strict round trip",
          arguments: [false, true])
    func roundTrips(deflate: Bool) async throws {
        let server = try await WebSocketServer(configuration: .init(permessageDeflate: deflate))
        let serverEvents = Inbox(server.events)
        let loop = WebSocketLoop(name: "HandlerReplyTests")
        let url = try #require(WebSocketURL(string: "ws://127.0.0.1:\(server.port)/"))
        let closed = Inbox<WebSocketEvent>()
        // The returned link is not stored anywhere the handler can see: the handler answers with the one it gets.
        let returned = loop.connect(to: url, configuration: .init(permessageDeflate: deflate)) { link, event in
            switch event {
            case .text(let text): link.send("echo " + text)
            case .closed, .failed: closed.push(event)
            default: break
            }
        }
        guard case .connected(let client) = try await serverEvents.next(within: .seconds(10), "the client") else {
            Issue.record("expected .connected")
            return
        }
        // Sent the moment the server sees the client, before the client has reported `.opened`.
        let rounds = 1_000
        let clock = ContinuousClock()
        let started = clock.now
        for round in 0..<rounds {
            let text = "round \(round) " + String(repeating: "x", count: round % 200)
            server.send(text, to: client)
            let answer = try await serverEvents.next(within: .seconds(5), "the answer to round \(round)")
            guard answer == .text(client, "echo " + text) else {
                Issue.record("round \(round): expected its echo, got \(String(describing: answer))")
                return
            }
        }
        // A lost wake-up costs a poll timeout or a stall; a healthy round trip is well under a millisecond idle.
        #expect(clock.now - started < .seconds(20))
        returned.close()
        guard case .closed = try await closed.next(within: .seconds(10), "the close") else {
            Issue.record("expected .closed")
            return
        }
        await loop.shutdown()
        await server.stop()
    }

    @Test("the link a handler keeps does not keep the loop: dropping the loop still closes the connection")
    func handedLinkDoesNotHoldTheLoop() async throws {
        let server = try await WebSocketServer()
        let url = try #require(WebSocketURL(string: "ws://127.0.0.1:\(server.port)/"))
        let events = Inbox<WebSocketEvent>()
        let kept = Mutex<WebSocketLink?>(nil)
        do {
            let loop = WebSocketLoop(name: "HandlerReplyTests.dropped")
            _ = loop.connect(to: url) { link, event in
                kept.withLock { $0 = link }
                events.push(event)
            }
            #expect(try await events.next(within: .seconds(10), "the upgrade") == .upgrading)
            #expect(try await events.next(within: .seconds(10), "the open") == .opened)
        }
        // The loop's last reference is gone (the handler's link holds only what sends need): it stops, and the
        // connection closes as going away.
        #expect(try await events.next(within: .seconds(10), "the close") == .closed(.init(
            code: 1001, text: "going away", initiatedLocally: true, cause: .loopStopped)))
        #expect(kept.withLock { $0 } != nil)
        await server.stop()
    }
}
