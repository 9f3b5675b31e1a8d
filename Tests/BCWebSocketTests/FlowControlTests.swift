import BCWebSocket
import Foundation
import Testing
import TestSupport

/// A `ReceiveWindow` holds a client to what its consumer has taken: the loop stops reading when the window is
/// full, the server's queue (and TCP) hold the rest, and nothing is lost or reordered when reading resumes.
@Suite("Flow control", .timeLimit(.minutes(1)))
struct FlowControlTests {
    /// A server with room to queue everything the tests send, and one client connected to it.
    private struct Link {
        let server: WebSocketServer
        let serverEvents: Inbox<WebSocketServerEvent>
        let client: ClientID
        let loop: WebSocketLoop
        let link: WebSocketLink
        let events: Inbox<WebSocketEvent>

        /// With `certificates`, over `wss://` (the client trusting their CA).
        init(window: ReceiveWindow, configuration: WebSocketClientConfiguration = .init(),
             certificates: TestCertificateAuthority? = nil) async throws {
            let tls = certificates.map {
                WebSocketServerConfiguration.TLS(certificateFile: $0.serverCertificate, privateKeyFile: $0.serverKey)
            }
            server = try await WebSocketServer(configuration: .init(permessageDeflate: false, maxQueuedBytes: 256 << 20,
                                                                    tls: tls))
            var configuration = configuration
            if let certificates { configuration.tls = .trusting(caFile: certificates.certificate) }
            serverEvents = Inbox(server.events)
            loop = WebSocketLoop(name: "FlowControlTests")
            let url = try #require(WebSocketURL(string: "\(certificates == nil ? "ws" : "wss")://127.0.0.1:\(server.port)/"))
            let events = Inbox<WebSocketEvent>()
            self.events = events
            link = loop.connect(to: url, configuration: configuration, window: window) { events.push($0) }
            #expect(try await events.next(within: .seconds(10), "the open") == .upgrading)
            #expect(try await events.next(within: .seconds(10), "the open") == .opened)
            guard case .connected(let client) = try await serverEvents.next(within: .seconds(10), "the client") else {
                throw TimedOut(what: "a .connected event", after: .seconds(10))
            }
            self.client = client
        }

        func stop() async {
            link.close()
            await loop.shutdown()
            await server.stop()
        }
    }

    private static func message(_ number: Int) -> String {
        "MSG\tk\t{\"t\":1,\"lci\":\"\(number)\",\"cm\":\"\(String(repeating: "x", count: 1_000))\"}"
    }

    @Test("a full window stops reading until the consumer catches up; every message then arrives, in order",
          arguments: ["ws", "wss"])
    func aFullWindowPausesReading(scheme: String) async throws {
        let changes = Inbox<Bool>()
        let window = ReceiveWindow(maxMessages: 8, maxBytes: 1 << 30) { changes.push($0) }
        // Over TLS, what OpenSSL decrypted past the pause must be read on resume, with no new bytes to prompt it.
        let certificates = scheme == "wss" ? try await TestCertificateAuthority.make() : nil
        defer { certificates?.remove() }
        let link = try await Link(window: window, certificates: certificates)
        let total = 20_000 // ~20 MB: far more than loopback's socket buffers hold
        for number in 0..<total { link.server.send(Self.message(number), to: link.client) }

        #expect(try await changes.next(within: .seconds(10), "the pause") == true)
        // Paused: the loop delivered no more than the window holds, and the server holds the rest.
        #expect(window.held.messages <= 8)
        #expect(link.server.queuedBytes(for: link.client) > 1_000_000)

        var received = 0
        while received < total {
            guard case .text(let text) = try await link.events.next(within: .seconds(10), "message \(received)") else {
                Issue.record("expected a text message")
                break
            }
            #expect(text == Self.message(received))
            received += 1
            window.release(bytes: text.utf8.count)
        }
        #expect(received == total)
        #expect(try await changes.next(within: .seconds(5), "the resume") == false)
        #expect(window.held.messages == 0)
        await link.stop()
    }

    @Test("a link paused longer than the hangup window is not dropped for silence; it goes on when resumed")
    func aPausedLinkIsNotHungUp() async throws {
        let changes = Inbox<Bool>()
        let window = ReceiveWindow(maxMessages: 4, maxBytes: 1 << 30) { changes.push($0) }
        var configuration = WebSocketClientConfiguration()
        configuration.pingInterval = .seconds(1)
        // Three seconds: until the first message arrives the link lives on pongs alone. With two, a full parallel
        // test run once timed out waiting for the pause; the likely cause, a loop starved past the window before
        // the server sent anything, hangs the link up (rightly), and a link hung up never pauses.
        configuration.hangupAfterSilence = .seconds(3)
        let link = try await Link(window: window, configuration: configuration)
        for number in 0..<10 { link.server.send(Self.message(number), to: link.client) }
        #expect(try await changes.next(within: .seconds(10), "the pause") == true)

        // Time itself is what is tested: twice the hangup window passes with the pongs unread.
        try await Task.sleep(for: .seconds(6))

        var texts: [String] = []
        while texts.count < 10 {
            guard case .text(let text) = try await link.events.next(within: .seconds(5), "message \(texts.count)") else {
                Issue.record("expected a text message, the link should still be open")
                break
            }
            texts.append(text)
            window.release(bytes: text.utf8.count)
        }
        #expect(texts == (0..<10).map(Self.message))
        link.server.send("after the pause", to: link.client)
        #expect(try await link.events.next(within: .seconds(5), "a message after the pause") == .text("after the pause"))
        await link.stop()
    }
}
