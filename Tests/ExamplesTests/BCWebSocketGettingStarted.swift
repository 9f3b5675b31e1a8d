import BCWebSocket
import Testing

/// BCWebSocket's getting-started article, its example as printed there, run: a server and a client on loopback.
@Suite("BCWebSocket getting started", .timeLimit(.minutes(1)))
struct BCWebSocketGettingStarted: PrintingExamples {
    let printed = PrintedLines()

    @Test("the client's hello comes back from the server as its echo")
    func echo() async throws {
        // >>> printed in Sources/BCWebSocket/BCWebSocket.docc/GettingStarted.md
        let server = try await WebSocketServer()                  // 127.0.0.1, a free port
        let echo = Task {
            for await event in server.events {
                if case .text(let client, let text) = event {
                    server.send("echo: \(text)", to: client)
                }
            }
        }
        let url = WebSocketURL(isSecure: false, host: server.host, port: server.port)
        let connection = WebSocketLoop.shared.connect(to: url)
        for await event in connection.events {                    // ends after .closed or .failed
            switch event {
            case .opened:
                connection.send("hello")
            case .text(let text):
                print(text)                                       // echo: hello
                connection.close()
            case .failed(let failure):
                print(failure)
            default:
                break
            }
        }
        await server.stop()
        echo.cancel()
        // <<< printed
        #expect(printed.lines == ["echo: hello"])
    }
}
