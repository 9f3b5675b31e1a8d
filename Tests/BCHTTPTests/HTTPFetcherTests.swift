import BCHTTP
import BCWebSocket
import Foundation
import TestSupport
import Testing

/// `HTTPFetcher` (HTTPS GET over a socket and `ClientTLS`) against the Python HTTPS peer
/// (`Tests/Peers/api_peer.py`) with a certificate from a CA made for the test: verification on by default,
/// `caFile` and `insecure` as for wss, statuses as answers, the body cap, the timeout, cancellation and headers,
/// and a handshake across an lws context's creation (lws 4.1.6 then takes new OpenSSL indexes for the whole
/// process, which failed handshakes when the fetcher's TLS was lws'; `ContextCreation`).
@Suite("HTTPS GET", .serialized, .timeLimit(.minutes(1)))
struct HTTPFetcherTests {
    /// Runs `body` with the API peer on a loopback port; everything is removed afterwards.
    private func withAPI(_ body: (TestCertificateAuthority, PeerProcess, Int) async throws -> Void) async throws {
        let ca = try await TestCertificateAuthority.make()
        defer { ca.remove() }
        try await withPeer("serve", [ca.serverCertificate, ca.serverKey, "127.0.0.1:1", ca.directory],
                           script: .api) { peer, port in
            try await body(ca, peer, port)
        }
    }

    private func request(_ port: Int, _ path: String, tls: WebSocketClientConfiguration.TLS,
                         timeout: Duration = .seconds(10), headers: [HTTPFetchRequest.Header] = [])
        throws -> HTTPFetchRequest {
        HTTPFetchRequest(url: try #require(URL(string: "https://127.0.0.1:\(port)\(path)")), headers: headers,
                         timeout: timeout, tls: tls)
    }

    private func failure(of request: HTTPFetchRequest) async -> HTTPFetchFailure? {
        do {
            _ = try await HTTPFetcher.fetch(request)
            return nil
        } catch {
            return error
        }
    }

    @Test("TLS: refused against the system store, answered with the test CA as caFile or with insecure")
    func verification() async throws {
        try await withAPI { ca, peer, port in
            let untrusted = await failure(of: try request(port, "/api/live/live?live_id=abc", tls: .system))
            guard case .tls(let detail)? = untrusted else {
                Issue.record("expected a TLS failure, got \(String(describing: untrusted))")
                return
            }
            #expect(detail.description.contains("not trusted"))

            let trusted = try await HTTPFetcher.fetch(
                try request(port, "/api/live/live?live_id=abc", tls: .trusting(caFile: ca.certificate)))
            #expect(trusted.status == 200)
            let object = try JSONSerialization.jsonObject(with: Data(trusted.body)) as? [String: Any]
            #expect(object?["live_id"] as? String == "abc")
            #expect(object?["broadcast_host"] as? String == "127.0.0.1:1")

            let lax = try await HTTPFetcher.fetch(try request(port, "/api/live/live?live_id=abc", tls: .insecure))
            #expect(lax.status == 200)

            let missing = await failure(of: try request(port, "/", tls: .trusting(caFile: ca.directory + "/absent.pem")))
            guard case .tls? = missing else {
                Issue.record("expected a TLS failure for a missing CA file, got \(String(describing: missing))")
                return
            }
            // Two answered fetches; the refused ones never reached the request line.
            _ = try await peer.reported("request", times: 2)
            #expect(peer.transcript.filter { $0.hasPrefix("request") }.count == 2, "only the trusted fetches got through")
        }
    }

    /// lws 4.1.6 lost the verify callback of its own handshakes in flight when a context was created
    /// (`ContextCreation`); the fetcher's TLS is its own now, and must not care. The relay holds the handshake
    /// while the test creates one.
    @Test("TLS: a context created in the middle of a handshake costs neither the fetch nor the verdict",
          arguments: [true, false])
    func handshakeAcrossAContextCreation(trusted: Bool) async throws {
        try await withAPI { ca, _, apiPort in
            try await withPeer("held-relay", [String(apiPort)]) { relay, port in
                let request = try request(port, "/api/live/live?live_id=abc",
                                          tls: trusted ? .trusting(caFile: ca.certificate) : .system)
                let fetch = Task { try await HTTPFetcher.fetch(request) }
                _ = try await relay.report("held bytes=")
                let other = await WebSocketLoopPool.started(connections: 1, name: "BCWebSocketTests.created")
                try relay.write(line: "release")
                let result = await fetch.result
                await other.shutdown()
                if trusted {
                    #expect(try result.get().status == 200)
                } else {
                    guard case .failure(let failure as HTTPFetchFailure) = result, case .tls(let detail) = failure else {
                        Issue.record("expected a TLS failure, got \(result)")
                        return
                    }
                    #expect(detail.description.contains("not trusted"))
                }
            }
        }
    }

    @Test("any HTTP status is an answer, with its body; request headers reach the server")
    func statusesAndHeaders() async throws {
        try await withAPI { ca, peer, port in
            for status in [401, 403, 404, 429, 500] {
                let answer = try await HTTPFetcher.fetch(try request(
                    port, "/api/live/live?live_id=status-\(status)", tls: .trusting(caFile: ca.certificate),
                    headers: [.init(name: "Cookie", value: "mr_id=abc\(status)")]))
                #expect(answer.status == status)
                #expect(String(decoding: answer.body, as: UTF8.self).contains("HTTP \(status) from the test API"))
                _ = try await peer.report("request path=/api/live/live?live_id=status-\(status) cookie=mr_id=abc\(status)")
            }
        }
    }

    @Test("a body over maxBodySize stops the fetch with .bodyTooLarge")
    func bodyCap() async throws {
        try await withAPI { ca, _, port in
            var capped = try request(port, "/api/live/live?live_id=huge", tls: .trusting(caFile: ca.certificate))
            capped.maxBodySize = 1 << 20
            #expect(await failure(of: capped) == .bodyTooLarge(limit: 1 << 20))
        }
    }

    @Test("a server that does not answer: .timedOut after the timeout, not later")
    func timeout() async throws {
        try await withAPI { ca, _, port in
            let started = ContinuousClock.now
            let slow = try request(port, "/api/live/live?live_id=slow", tls: .trusting(caFile: ca.certificate),
                                   timeout: .seconds(1))
            #expect(await failure(of: slow) == .timedOut(.seconds(1)))
            #expect(ContinuousClock.now - started < .seconds(4))
        }
    }

    @Test("cancelling the task ends the fetch at once with .cancelled")
    func cancellation() async throws {
        try await withAPI { ca, peer, port in
            let slow = try request(port, "/api/live/live?live_id=slow", tls: .trusting(caFile: ca.certificate),
                                   timeout: .seconds(30))
            let started = ContinuousClock.now
            let task = Task { () -> HTTPFetchFailure? in
                do throws(HTTPFetchFailure) {
                    _ = try await HTTPFetcher.fetch(slow)
                    return nil
                } catch {
                    return error
                }
            }
            _ = try await peer.report("request path=/api/live/live?live_id=slow")
            task.cancel()
            #expect(await task.value == .cancelled)
            #expect(ContinuousClock.now - started < .seconds(5))
        }
    }

    @Test("nothing listening: .unreachable; not http(s): .invalidURL")
    func unreachableAndInvalid() async throws {
        let port = try unusedLoopbackPort()
        let refused = await failure(of: HTTPFetchRequest(url: try #require(URL(string: "https://127.0.0.1:\(port)/"))))
        guard case .unreachable? = refused else {
            Issue.record("expected .unreachable, got \(String(describing: refused))")
            return
        }
        let ftp = await failure(of: HTTPFetchRequest(url: try #require(URL(string: "ftp://127.0.0.1/x"))))
        #expect(ftp == .invalidURL("ftp://127.0.0.1/x"))
    }
}
