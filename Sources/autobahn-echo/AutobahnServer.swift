import BCWebSocket
import Foundation

/// An echo server on 127.0.0.1 for Autobahn's fuzzing client: every text and binary message goes back to its
/// sender as it came.
struct AutobahnServer {
    let port: Int
    let maxMessageSize: Int

    func run() async {
        // The queue must hold a few echoes of the largest message (9.x sends 16 MiB ones back to back).
        let configuration = WebSocketServerConfiguration(
            port: port, maxMessageSize: maxMessageSize,
            maxQueuedBytes: max(8 << 20, 4 * maxMessageSize))
        let server: WebSocketServer
        do {
            server = try await WebSocketServer(configuration: configuration)
        } catch {
            print("autobahn-echo: \(error)")
            exit(1)
        }
        print("autobahn-echo: echoing on ws://127.0.0.1:\(server.port)")
        for await event in server.events {
            switch event {
            case .text(let client, let text): server.send(text, to: client)
            case .binary(let client, let bytes): server.send(bytes, to: client)
            default: break
            }
        }
    }
}
