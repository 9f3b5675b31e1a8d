@testable import BCHTTP
import BCWebSocket
import Foundation
import TestSupport
import Testing

/// The HTTPS client's words for what failed (issue 31 §3): each TLS failure named for what it is, against a
/// loopback server (`Tests/Peers/tls_peer.py`) with certificates made for the test; the server name sent as SNI
/// for a name and never for an IP address (RFC 6066 §3); a refused connection and a name that does not resolve
/// said in those words. No message names a library.
@Suite(.timeLimit(.minutes(1))) struct HTTPFetcherTLSTests {
    static let peer = PeerScript(file: "tls_peer.py")

    enum Server: String, CaseIterable, Sendable {
        case expired, selfSigned, wrongHost, unknownIssuer, tls10Only
    }

    private func failure(of url: String, tls: WebSocketClientConfiguration.TLS) async throws -> HTTPFetchFailure? {
        let request = HTTPFetchRequest(url: try #require(URL(string: url)), timeout: .seconds(10), tls: tls)
        do {
            _ = try await HTTPFetcher.fetch(request)
            return nil
        } catch {
            return error
        }
    }

    private func expectNoLibraryWords(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for word in ["lws", "libwebsockets", "OpenSSL", "SSL err", "error:"] {
            #expect(!text.contains(word), "\"\(text)\" names \(word)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: Server.allCases)
    func aFailedHandshakeNamesItsReason(server: Server) async throws {
        let ca = try await TestCertificateAuthority.make(
            serverNames: server == .wrongHost ? "DNS:other.example" : "DNS:localhost,IP:127.0.0.1")
        defer { ca.remove() }
        let (certificate, key): (String, String) = switch server {
        case .expired: try await ca.expiredServerCertificate()
        case .selfSigned: try await ca.selfSignedCertificate()
        default: (ca.serverCertificate, ca.serverKey)
        }
        // The test CA is trusted except where the point is that it is not.
        let trust: WebSocketClientConfiguration.TLS = [.selfSigned, .unknownIssuer].contains(server)
            ? .system : .trusting(caFile: ca.certificate)
        let (kind, words): (TLSFailure.Kind, String) = switch server {
        case .expired: (.certificateExpired, "has expired")
        case .selfSigned: (.selfSigned, "self-signed")
        case .wrongHost: (.hostMismatch, "not made out to localhost (host name mismatch)")
        case .unknownIssuer: (.unknownIssuer, "unknown issuer")
        case .tls10Only: (.protocolVersion, "TLS 1.0")
        }
        let arguments = [certificate, key] + (server == .tls10Only ? ["--tls1-only"] : [])
        try await withPeer("serve", arguments, script: Self.peer) { peer, port in
            let failure = try await failure(of: "https://localhost:\(port)/", tls: trust)
            guard case .tls(let tls)? = failure else {
                Issue.record("expected a TLS failure, got \(String(describing: failure))")
                return
            }
            #expect(tls.kind == kind)
            #expect(tls.description.contains(words), "\(tls)")
            expectNoLibraryWords(String(describing: failure!))
            // `--ca-file` is advised only where another CA can be the fix.
            #expect(tls.caFileMayHelp == [.selfSigned, .unknownIssuer].contains(server))
            _ = try await peer.report("handshake failed")
        }
    }

    @Test(arguments: [("127.0.0.1", "none"), ("localhost", "localhost")])
    func theServerNameIsSentForANameAndNeverForAnAddress(host: String, sni: String) async throws {
        let ca = try await TestCertificateAuthority.make()
        defer { ca.remove() }
        try await withPeer("serve", [ca.serverCertificate, ca.serverKey], script: Self.peer) { peer, port in
            let answer = try await HTTPFetcher.fetch(HTTPFetchRequest(
                url: try #require(URL(string: "https://\(host):\(port)/")), tls: .trusting(caFile: ca.certificate)))
            #expect(answer.status == 200)
            #expect(answer.body == Array("ok".utf8))
            #expect(try await peer.report("sni ") == "sni \(sni)")
        }
    }

    @Test func aRefusedConnectionIsSaidSo() async throws {
        let port = try unusedLoopbackPort()
        let failure = try await failure(of: "https://127.0.0.1:\(port)/", tls: .system)
        guard case .unreachable(let detail)? = failure else {
            Issue.record("expected .unreachable, got \(String(describing: failure))")
            return
        }
        #expect(detail == "127.0.0.1:\(port) refused the connection (nothing listens on that port)")
        expectNoLibraryWords(String(describing: failure!))
    }

    /// `.invalid` never resolves (RFC 2606).
    @Test func aNameThatDoesNotResolveIsSaidSo() async throws {
        let failure = try await failure(of: "https://no-such-host.invalid/api", tls: .system)
        guard case .unreachable(let detail)? = failure else {
            Issue.record("expected .unreachable, got \(String(describing: failure))")
            return
        }
        #expect(detail.hasPrefix("the name no-such-host.invalid could not be resolved"), "\(detail)")
        expectNoLibraryWords(String(describing: failure!))
    }
}
