import BCWebSocket
import Foundation
import Testing
import TestSupport

private let testServerPath = "/usr/bin/libwebsockets-test-server"

/// Smoke test against Debian's own lws test server (package `libwebsockets-test-server`).
@Suite("Smoke test against libwebsockets-test-server")
struct LibWebSocketsTestServerTests {
    @Test(
        "dumb-increment-protocol counts up",
        .enabled(if: FileManager.default.isExecutableFile(atPath: testServerPath),
                 "\(testServerPath) is missing: apt-get install libwebsockets-test-server")
    )
    func dumbIncrement() async throws {
        let port = try unusedLoopbackPort()
        // `-i lo` binds the loopback interface only.
        let server = try PeerProcess(executable: testServerPath, arguments: ["--port=\(port)", "-i", "lo"],
                                     name: "libwebsockets-test-server")
        defer { server.stop() }
        let loop = WebSocketLoop(name: "BCWebSocketTests.lws-test-server")
        var configuration = WebSocketClientConfiguration()
        configuration.subprotocol = "dumb-increment-protocol"
        let url = try #require(WebSocketURL(string: "ws://127.0.0.1:\(port)/"))

        // The server prints nothing when it is ready: try until it accepts (bounded).
        var opened: (WebSocketConnection, Inbox<WebSocketEvent>)?
        for _ in 0..<50 where opened == nil {
            let connection = loop.connect(to: url, configuration: configuration)
            let events = Inbox(connection.events)
            var event = try await events.next()
            if event == .upgrading { event = try await events.next() }
            switch event {
            case .opened?:
                opened = (connection, events)
            case .failed(.refused)?:
                try await Task.sleep(for: .milliseconds(100))
            case let other:
                Issue.record("unexpected \(String(describing: other))")
                return
            }
        }
        let (connection, events) = try #require(opened, "libwebsockets-test-server never accepted")

        var numbers: [Int] = []
        while numbers.count < 3 {
            guard case .text(let text)? = try await events.next() else {
                Issue.record("expected a number")
                return
            }
            numbers.append(try #require(Int(text), "not a number: \(text)"))
        }
        #expect(numbers[1] == numbers[0] + 1 && numbers[2] == numbers[1] + 1)
        connection.close()
        let closed = try await events.first("the close") { if case .closed = $0 { true } else { false } }
        #expect(closed == .closed(.init(code: 1000, text: "", initiatedLocally: true, cause: .requested)))
        await loop.shutdown()
    }
}
