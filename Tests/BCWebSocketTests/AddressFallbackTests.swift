@testable import BCWebSocket
import Testing
import TestSupport

/// One attempt tries every resolved address in turn while they refuse. The machine's resolver
/// gives "localhost" a single address here, so the addresses are handed in directly, as the
/// resolver thread would: 127.0.0.2 is loopback too, but the peer listens on 127.0.0.1 only.
@Suite("Next address after a refusal")
struct AddressFallbackTests {
    private func attempt(_ loop: WebSocketLoop, port: Int, addresses: [String]) throws -> Inbox<WebSocketEvent> {
        let url = try #require(WebSocketURL(string: "ws://localhost:\(port)/"))
        let id = loop.core.makeID()
        let events = Inbox<WebSocketEvent>()
        loop.core.submit(.openClient(id: id, url: url, configuration: .init(), window: nil, deliver: { events.push($0) }))
        loop.core.submit(.resolved(id: id, .success(addresses)))
        return events
    }

    @Test("a refused address is followed by the next one")
    func fallsBack() async throws {
        let loop = WebSocketLoop(name: "BCWebSocketTests.fallback")
        try await withPeer("echo") { _, port in
            let events = try attempt(loop, port: port, addresses: ["127.0.0.2", "127.0.0.1"])
            #expect(try await events.next() == .upgrading)
            #expect(try await events.next() == .opened)
            #expect(try await events.next() == .text("hello"))
            let refused = try attempt(loop, port: port, addresses: ["127.0.0.2", "127.0.0.3"])
            #expect(try await refused.next() == .failed(.refused))
        }
        await loop.shutdown()
    }
}
