import BCWebSocket
import Foundation
import Testing
import TestSupport

/// The server with `WebSocketServerConfiguration.tls`: `wss://` for a client that trusts the test CA, a clear
/// start error for files it cannot use.
@Suite("WebSocket server over TLS", .timeLimit(.minutes(1)))
struct ServerTLSTests {
    @Test("serves wss:// with a PEM certificate and key; the binding's client with the CA file connects")
    func servesWSS() async throws {
        let ca = try await TestCertificateAuthority.make()
        defer { ca.remove() }
        let server = try await WebSocketServer(configuration: .init(
            tls: .init(certificateFile: ca.serverCertificate, privateKeyFile: ca.serverKey)))
        let events = Inbox(server.events)
        let loop = WebSocketLoop(name: "BCWebSocketTests.tls")
        var configuration = WebSocketClientConfiguration()
        configuration.tls = .trusting(caFile: ca.certificate)
        let url = try #require(WebSocketURL(string: "wss://127.0.0.1:\(server.port)/"))
        let connection = loop.connect(to: url, configuration: configuration)
        let client = Inbox(connection.events)
        #expect(try await client.next() == .upgrading)
        #expect(try await client.next() == .opened)
        // A context created by a test running beside this one can fail our first TLS handshake, which the client then
        // makes again unseen (ContextCreation): the server may see that first connection abandoned before this one.
        var event = try await events.next(within: .seconds(10), "the TLS client")
        while case .abandoned = event { event = try await events.next(within: .seconds(10), "the TLS client") }
        guard case .connected(let id) = event else {
            Issue.record("expected .connected, got \(event)")
            return
        }
        server.send("over tls", to: id)
        #expect(try await client.next() == .text("over tls"))

        // A client that does not trust the CA is refused by its own check.
        let untrusted = loop.connect(to: url, configuration: .init())
        let refused = Inbox(untrusted.events)
        guard case .failed(.tls)? = try await refused.next() else {
            Issue.record("expected a TLS failure without the CA")
            return
        }
        connection.close()
        await loop.shutdown()
        await server.stop()
    }

    @Test("a certificate file that is missing or not PEM: a start error that names it")
    func unusableFiles() async throws {
        let ca = try await TestCertificateAuthority.make()
        defer { ca.remove() }
        let missing = ca.directory + "/absent.pem"
        await #expect(throws: WebSocketServer.StartError.self) {
            _ = try await WebSocketServer(configuration: .init(
                tls: .init(certificateFile: missing, privateKeyFile: ca.serverKey)))
        }
        do {
            _ = try await WebSocketServer(configuration: .init(
                tls: .init(certificateFile: ca.serverCertificate, privateKeyFile: ca.directory + "/openssl.cnf")))
            Issue.record("a key that is not PEM was accepted")
        } catch {
            #expect("\(error)".contains("private key \(ca.directory)/openssl.cnf is not a PEM file"))
        }
    }
}
