import BCWebSocket
import Foundation
import TestSupport
import Testing

/// The client against a real, independent peer: Python `websockets` 15.0.1 (Tests/Peers/ws_peer.py).
@Suite("WebSocket client against a Python websockets peer")
struct ClientTests {
    let loop = WebSocketLoop(name: "BCWebSocketTests.client")

    func connect(_ url: String, _ configuration: WebSocketClientConfiguration = .init())
        throws -> (WebSocketConnection, Inbox<WebSocketEvent>) {
        let parsed = try #require(WebSocketURL(string: url))
        let connection = loop.connect(to: parsed, configuration: configuration)
        return (connection, Inbox(connection.events))
    }

    @Test("opens, exchanges text and binary both ways, closes with our code")
    func openAndTextBothWays() async throws {
        try await withPeer("echo") { peer, port in
            var configuration = WebSocketClientConfiguration()
            configuration.origin = "https://www.mirrativ.com"
            let (connection, events) = try connect("ws://127.0.0.1:\(port)/chat?x=1", configuration)
            // Queued before the connection opens, sent on open.
            connection.send("early")
            #expect(try await events.next() == .upgrading)
            #expect(try await events.next() == .opened)
            let request = try await peer.report("request")
            #expect(request == "request path=/chat?x=1 origin=https://www.mirrativ.com")
            #expect(try await events.next() == .text("hello"))
            #expect(try await events.next() == .text("echo:early"))
            connection.send("SUB\t118f91f:UdoBre1M")
            #expect(try await events.next() == .text("echo:SUB\t118f91f:UdoBre1M"))
            connection.send("日本語 ✓")
            #expect(try await events.next() == .text("echo:日本語 ✓"))
            connection.send([0, 1, 2, 255])
            #expect(try await events.next() == .binary(Array("echo:".utf8) + [0, 1, 2, 255]))
            connection.close(code: 4000, reason: "test done")
            let closed = try await events.next()
            #expect(closed == .closed(.init(code: 4000, text: "test done", initiatedLocally: true, cause: .requested)))
            _ = try await peer.report("closed code=4000 reason=test done")
            #expect(try await events.next() == nil)
        }
        await loop.shutdown()
    }

    @Test("ending the consumer of events closes the connection")
    func consumerGoneCloses() async throws {
        try await withPeer("echo") { peer, port in
            let (_, events) = try connect("ws://127.0.0.1:\(port)/")
            #expect(try await events.next() == .upgrading)
            #expect(try await events.next() == .opened)
            #expect(try await events.next() == .text("hello"))
            events.cancel() // cancels the task iterating `connection.events`
            _ = try await peer.report("closed code=1000")
        }
        await loop.shutdown()
    }

    @Test("shutting the loop down closes open connections with 1001")
    func shutdownClosesConnections() async throws {
        try await withPeer("echo") { peer, port in
            let (_, events) = try connect("ws://127.0.0.1:\(port)/")
            #expect(try await events.next() == .upgrading)
            #expect(try await events.next() == .opened)
            #expect(try await events.next() == .text("hello"))
            await loop.shutdown()
            #expect(try await events.next() == .closed(.init(
                code: 1001, text: "going away", initiatedLocally: true, cause: .loopStopped)))
            _ = try await peer.report("closed code=1001")
            // A connection asked of a stopped loop fails at once.
            let (_, late) = try connect("ws://127.0.0.1:\(port)/")
            guard case .failed(.other)? = try await late.next() else {
                Issue.record("expected an immediate failure")
                return
            }
        }
    }

    @Test("a message sent in several frames arrives as one")
    func fragmentedMessageIsReassembled() async throws {
        try await withPeer("fragmented", ["4"]) { _, port in
            let (connection, events) = try connect("ws://127.0.0.1:\(port)/")
            #expect(try await events.next() == .upgrading)
            #expect(try await events.next() == .opened)
            #expect(try await events.next() == .text("part-1|part-2|part-3|part-4"))
            connection.close()
        }
        await loop.shutdown()
    }

    @Test("a large message arrives whole; one over maxMessageSize closes with 1009")
    func oversizedMessageClosesWith1009() async throws {
        try await withPeer("big", ["300000"]) { peer, port in
            let (whole, wholeEvents) = try connect("ws://127.0.0.1:\(port)/")
            #expect(try await wholeEvents.next() == .upgrading)
            #expect(try await wholeEvents.next() == .opened)
            #expect(try await wholeEvents.next() == .text(String(repeating: "x", count: 300_000)))
            whole.close()

            var configuration = WebSocketClientConfiguration()
            configuration.maxMessageSize = 64 * 1024
            let (_, events) = try connect("ws://127.0.0.1:\(port)/", configuration)
            #expect(try await events.next() == .upgrading)
            #expect(try await events.next() == .opened)
            let refusal = try await events.next()
            guard case .refused(let refused) = refusal else {
                Issue.record("expected .refused, got \(String(describing: refusal))")
                return
            }
            #expect(refused.reason == .tooBig(limit: 64 * 1024))
            #expect(refused.prefix.count == 64 * 1024 && refused.truncated && refused.size > 64 * 1024)
            let event = try await events.next()
            guard case .closed(let reason) = event else {
                Issue.record("expected .closed, got \(String(describing: event))")
                return
            }
            #expect(reason.code == 1009)
            #expect(reason.initiatedLocally)
            #expect(reason.cause == .messageTooBig(limit: 64 * 1024))
            _ = try await peer.report("closed code=1009")
        }
        await loop.shutdown()
    }

    @Test("permessage-deflate is negotiated and messages still round-trip")
    func permessageDeflate() async throws {
        try await withPeer("echo") { peer, port in
            let (connection, events) = try connect("ws://127.0.0.1:\(port)/")
            #expect(try await events.next() == .upgrading)
            #expect(try await events.next() == .opened)
            #expect(try await peer.report("extensions=") == "extensions=permessage-deflate")
            #expect(try await events.next() == .text("hello"))
            let long = String(repeating: "compressible ", count: 2_000)
            connection.send(long)
            #expect(try await events.next() == .text("echo:" + long))
            connection.close()
        }
        try await withPeer("echo") { peer, port in
            var configuration = WebSocketClientConfiguration()
            configuration.permessageDeflate = false
            let (connection, events) = try connect("ws://127.0.0.1:\(port)/", configuration)
            #expect(try await events.next() == .upgrading)
            #expect(try await events.next() == .opened)
            #expect(try await peer.report("extensions=") == "extensions=none")
            connection.close()
        }
        await loop.shutdown()
    }

    @Test("an upgrade answered with an HTTP error fails with that status", arguments: [503, 403])
    func httpStatusOnUpgrade(status: Int) async throws {
        try await withPeer("status", [String(status)]) { _, port in
            let (_, events) = try connect("ws://127.0.0.1:\(port)/")
            #expect(try await events.next() == .upgrading)
            let event = try await events.next()
            #expect(event == .failed(.httpStatus(status)))
            if case .failed(let failure) = event {
                #expect(failure.isRetryable == (status == 503))
            }
            #expect(try await events.next() == nil)
        }
        await loop.shutdown()
    }

    @Test("a port nobody listens on fails as refused")
    func refusedPort() async throws {
        let port = try unusedLoopbackPort()
        let (_, events) = try connect("ws://127.0.0.1:\(port)/")
        var event = try await events.next()
        // lws may take a non-blocking connect's writability for a connection and start writing the request
        // before the refusal surfaces (seen once under AddressSanitizer): `.upgrading`, then the refusal.
        if event == .upgrading { event = try await events.next() }
        #expect(event == .failed(.refused))
        await loop.shutdown()
    }

    @Test("a peer that accepts TCP and never answers the upgrade times out as a handshake timeout")
    func handshakeTimeout() async throws {
        try await withPeer("silent") { _, port in
            var configuration = WebSocketClientConfiguration()
            configuration.connectTimeout = .milliseconds(800)
            let started = ContinuousClock.now
            let (_, events) = try connect("ws://127.0.0.1:\(port)/", configuration)
            #expect(try await events.next(within: .seconds(5)) == .upgrading)
            #expect(try await events.next(within: .seconds(5)) == .failed(.handshakeTimedOut(after: .milliseconds(800))))
            let elapsed = ContinuousClock.now - started
            #expect(elapsed >= .milliseconds(700) && elapsed < .seconds(4))
        }
        await loop.shutdown()
    }

    @Test("a ping from the peer is answered with a pong that carries its payload")
    func pingIsAnswered() async throws {
        try await withPeer("ping") { peer, port in
            let (connection, events) = try connect("ws://127.0.0.1:\(port)/")
            #expect(try await events.next() == .upgrading)
            #expect(try await events.next() == .opened)
            #expect(try await events.next() == .text("hello"))
            #expect(try await peer.report("pong=") == "pong=matched")
            connection.close()
        }
        await loop.shutdown()
    }

    @Test("a peer that stops answering pings is dropped within the hangup window")
    func silenceDetectedByPing() async throws {
        try await withPeer("mute") { peer, port in
            var configuration = WebSocketClientConfiguration()
            configuration.pingInterval = .seconds(1)
            configuration.hangupAfterSilence = .seconds(2)
            let (_, events) = try connect("ws://127.0.0.1:\(port)/", configuration)
            #expect(try await events.next() == .upgrading)
            #expect(try await events.next() == .opened)
            #expect(try await events.next() == .text("hello"))
            _ = try await peer.report("muted")
            // The clock starts once the test has seen the peer go mute: by then the last pong is behind, so the
            // hangup is due within the window (2 s) and a ping interval (1 s) from here, whatever the machine's
            // load did to the peer's start-up before it.
            let muted = ContinuousClock.now
            let event = try await events.next(within: .seconds(6), "the silence hangup")
            let elapsed = ContinuousClock.now - muted
            guard case .closed(let reason) = event else {
                Issue.record("expected .closed, got \(String(describing: event))")
                return
            }
            #expect(reason.cause == .silence(after: .seconds(2)))
            #expect(reason.initiatedLocally)
            // The cause above already says the hangup came a whole window after the last pong; the clock checks
            // the upper bound: within the window and a ping interval, and 2 s of slack for a loaded machine.
            #expect(elapsed < .seconds(5))
        }
        await loop.shutdown()
    }

    @Test("closing before open abandons the attempt")
    func closeBeforeOpen() async throws {
        try await withPeer("silent") { _, port in
            let (connection, events) = try connect("ws://127.0.0.1:\(port)/")
            connection.close()
            var event = try await events.next()
            if event == .upgrading { event = try await events.next() }  // the request may have gone out already
            #expect(event == .failed(.cancelled))
        }
        await loop.shutdown()
    }

    @Test("an unresolvable host fails as dnsFailed")
    func dnsFailure() async throws {
        let (_, events) = try connect("ws://no-such-host.invalid/")
        let event = try await events.next(within: .seconds(8))
        guard case .failed(.dnsFailed(let host, _)) = event else {
            Issue.record("expected dnsFailed, got \(String(describing: event))")
            return
        }
        #expect(host == "no-such-host.invalid")
        await loop.shutdown()
    }

    /// lws 4.1.6 takes a new process-wide OpenSSL index whenever a context is created, which loses the
    /// verify callback of a handshake in flight (`ContextCreation`). The relay holds the handshake between the
    /// ClientHello and the server's certificate while the test creates a context.
    @Test("wss: a context created in the middle of a handshake costs neither the connection nor the verdict",
          arguments: [true, false])
    func handshakeAcrossAContextCreation(trusted: Bool) async throws {
        let certificates = try await TestCertificateAuthority.make()
        defer { certificates.remove() }
        try await withPeer("tls", [certificates.serverCertificate, certificates.serverKey]) { _, tlsPort in
            try await withPeer("held-relay", [String(tlsPort)]) { relay, port in
                var configuration = WebSocketClientConfiguration()
                if trusted { configuration.tls = .trusting(caFile: certificates.certificate) }
                let (connection, events) = try connect("wss://localhost:\(port)/", configuration)
                _ = try await relay.report("held bytes=")
                let other = await WebSocketLoopPool.started(connections: 1, name: "BCWebSocketTests.created")
                try relay.write(line: "release")
                if trusted {
                    #expect(try await events.next() == .upgrading)
                    #expect(try await events.next() == .opened)
                    #expect(try await events.next() == .text("hello"))
                    connection.close()
                } else {
                    let failure = try await events.next()
                    guard case .failed(.tls(let detail)) = failure else {
                        Issue.record("expected a TLS failure, got \(String(describing: failure))")
                        await other.shutdown()
                        return
                    }
                    #expect(detail.contains("not trusted"))
                }
                await other.shutdown()
            }
        }
        await loop.shutdown()
    }

    @Test("wss: fails against the system store, opens with the test CA as caFile")
    func tlsWithTestCA() async throws {
        let certificates = try await TestCertificateAuthority.make()
        defer { certificates.remove() }
        try await withPeer("tls", [certificates.serverCertificate, certificates.serverKey]) { _, port in
            // "localhost": the name the certificate carries, and the name the client checks it against.
            let url = "wss://localhost:\(port)/"

            let (_, untrusted) = try connect(url)
            let failure = try await untrusted.next()
            guard case .failed(.tls(let detail)) = failure else {
                Issue.record("expected a TLS failure, got \(String(describing: failure))")
                return
            }
            #expect(detail.contains("not trusted"))

            var configuration = WebSocketClientConfiguration()
            configuration.tls = .trusting(caFile: certificates.certificate)
            let (connection, trusted) = try connect(url, configuration)
            #expect(try await trusted.next() == .upgrading)
            #expect(try await trusted.next() == .opened)
            #expect(try await trusted.next() == .text("hello"))
            connection.send("over tls")
            #expect(try await trusted.next() == .text("echo:over tls"))
            connection.close()
            guard case .closed(let reason) = try await trusted.next() else {
                Issue.record("expected .closed")
                return
            }
            #expect(reason.code == 1000)

            var missing = WebSocketClientConfiguration()
            missing.tls = .trusting(caFile: certificates.directory + "/absent.pem")
            let (_, missingEvents) = try connect(url, missing)
            let missingFailure = try await missingEvents.next()
            guard case .failed(.tls)? = missingFailure else {
                Issue.record("expected a TLS failure for a missing CA file, got \(String(describing: missingFailure))")
                return
            }

            var insecure = WebSocketClientConfiguration()
            insecure.tls = .insecure
            let (lax, laxEvents) = try connect(url, insecure)
            #expect(try await laxEvents.next() == .upgrading)
            #expect(try await laxEvents.next() == .opened)
            lax.close()
        }
        await loop.shutdown()
    }

    @Test("wss: a certificate from a trusted CA for another name is refused, by name and by address",
          arguments: ["localhost", "127.0.0.1"])
    func tlsNameMismatch(host: String) async throws {
        let certificates = try await TestCertificateAuthority.make(serverNames: "DNS:elsewhere.example,IP:10.9.8.7")
        defer { certificates.remove() }
        try await withPeer("tls", [certificates.serverCertificate, certificates.serverKey]) { _, port in
            var configuration = WebSocketClientConfiguration()
            configuration.tls = .trusting(caFile: certificates.certificate)
            let (_, events) = try connect("wss://\(host):\(port)/", configuration)
            let failure = try await events.next()
            guard case .failed(.tls(let detail)) = failure else {
                Issue.record("expected a TLS failure, got \(String(describing: failure))")
                return
            }
            #expect(detail.contains("not trusted") && detail.contains("mismatch"), "\(detail)")
        }
        await loop.shutdown()
    }
}
