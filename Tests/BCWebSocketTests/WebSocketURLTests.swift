@testable import BCWebSocket
import Testing
import TestSupport

@Suite("WebSocketURL parsing")
struct WebSocketURLTests {
    @Test("the bcsvr endpoint form")
    func bcsvrEndpoint() throws {
        let url = try #require(WebSocketURL(string: "wss://online.mirrativ.com/"))
        #expect(url.isSecure)
        #expect(url.host == "online.mirrativ.com")
        #expect(url.port == 443)
        #expect(url.path == "/")
        #expect(url.authority == "online.mirrativ.com")
        #expect(url.description == "wss://online.mirrativ.com/")
    }

    @Test("explicit port, query, IPv6, no path")
    func variants() throws {
        let local = try #require(WebSocketURL(string: "ws://127.0.0.1:8080/chat?x=1#frag"))
        #expect(!local.isSecure && local.port == 8080 && local.path == "/chat?x=1")
        #expect(local.authority == "127.0.0.1:8080")
        let bare = try #require(WebSocketURL(string: "WS://example.com"))
        #expect(bare.port == 80 && bare.path == "/")
        let query = try #require(WebSocketURL(string: "ws://example.com?k=v"))
        #expect(query.path == "/?k=v")
        let v6 = try #require(WebSocketURL(string: "wss://[::1]:9443/x"))
        #expect(v6.host == "::1" && v6.port == 9443 && v6.authority == "[::1]:9443")
    }

    @Test("rejects what is not a WebSocket URL", arguments: [
        "https://example.com/", "ws://", "ws://:80/", "ws://host:0/", "ws://host:70000/",
        "ws://host:abc/", "ws://user@host/", "wss://[::1/", "example.com",
    ])
    func rejects(_ text: String) {
        #expect(WebSocketURL(string: text) == nil)
    }
}
