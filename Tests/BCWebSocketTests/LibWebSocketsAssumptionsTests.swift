@testable import BCWebSocket
import CLibWebSockets
import Foundation
import Testing
import TestSupport

/// Each fact of `LibWebSocketsAssumptions` checked against the installed libwebsockets, through lws itself
/// (`LibWebSocketsProbe`: a context and a raw connection, none of the binding). A failure here names the fact
/// that no longer holds and the code that relies on it.
@Suite("what the client relies on in libwebsockets still holds")
struct LibWebSocketsAssumptionsTests {
    @Test("the installed libwebsockets is the version the assumptions were read from")
    func version() {
        let installed = LibWebSocketsAssumptions.installedVersion
        let version = LibWebSocketsAssumptions.version
        #expect(installed == version || installed.hasPrefix(version + "-") || installed.hasPrefix(version + " "),
                """
                libwebsockets is \(installed), the assumptions were read from \(LibWebSocketsAssumptions.version): \
                re-read every fact in Sources/BCWebSocket/LibWebSocketsAssumptions.swift (connect error texts, \
                the raw method and write type, the context timeouts, the raw listening role), then update the \
                version
                """)
    }

    @Test("a refused connect: lws' text reads as a refusal (ConnectFailureClassifier, the address fallback)")
    func refusedText() throws {
        let port = try unusedLoopbackPort()
        let outcome = LibWebSocketsProbe.connect(to: "127.0.0.1", port: port)
        guard case .failed(let text) = outcome else {
            Issue.record("a connect to a closed port should fail, got \(outcome)")
            return
        }
        #expect(ConnectFailureClassifier.classify(message: text, elapsed: .zero) == .refused,
                "lws says \"\(text)\" for a refused connect: add its words to refusedPhrases")
    }

    @Test("lws' own connect timer: connect_timeout_secs is honoured and its text reads as a timeout")
    func timeoutText() throws {
        // A listener whose accept queue is full drops the next SYN: the connect neither completes nor fails.
        let listener = try LoopbackListener(backlog: 0)
        defer { listener.close() }
        let filler = LoopbackClient.connect(port: listener.port)
        defer { if filler >= 0 { Foundation.close(filler) } }
        #expect(filler >= 0)
        let started = ContinuousClock.now
        let outcome = LibWebSocketsProbe.connect(to: "127.0.0.1", port: listener.port, connectTimeoutSeconds: 1,
                                                 limit: .seconds(8))
        let elapsed = ContinuousClock.now - started
        guard case .failed(let text) = outcome else {
            Issue.record("""
                lws' connect timer (connect_timeout_secs 1) did not end the connect: \(outcome). \
                ServiceCore's client loop raises it to LibWebSocketsAssumptions.contextTimeoutSeconds
                """)
            return
        }
        #expect(elapsed < .seconds(4), "connect_timeout_secs 1 took \(elapsed)")
        #expect(ConnectFailureClassifier.classify(message: text, elapsed: elapsed) == .timedOut(after: elapsed),
                "lws says \"\(text)\" when its connect timer fires: add its words to timeoutPhrases")
    }

    /// On lws' own loop, and on the libev loop the binding runs every context on (`eventLoopOption`): the plugin
    /// loads, the loop waits in epoll, and a connection's events reach its callbacks as on lws' own loop.
    @Test("a RAW connection puts exactly what is written on the wire: no HTTP request, no framing",
          arguments: [false, true])
    func rawPassThrough(onLibev: Bool) throws {
        let listener = try LoopbackListener(backlog: 4)
        defer { listener.close() }
        let bytes = Array("GET / HTTP/1.1\r\nHost: probe\r\n\r\n\u{0}\u{81}\u{FF}".utf8)
        var epoll = false
        let outcome = LibWebSocketsProbe.connect(to: "127.0.0.1", port: listener.port, write: bytes,
                                                 onLibev: onLibev, waitedInEpoll: &epoll)
        if onLibev {
            #expect(epoll, "libev's loop does not wait in epoll here: a wake-up would cost every socket again")
        }
        #expect(outcome == .connected(wrote: Int32(bytes.count)),
                "method \"\(LibWebSocketsAssumptions.rawMethod)\" and write type rawWrite: \(outcome)")
        let accepted = listener.accept()
        #expect(accepted >= 0)
        guard accepted >= 0 else { return }
        defer { Foundation.close(accepted) }
        let received = LoopbackClient.readUntilClosed(accepted, within: .seconds(5))
        #expect(received?.bytes == bytes, """
            lws sent \(received?.bytes.count ?? -1) bytes for \(bytes.count) written raw: a RAW connection \
            (ServiceCore+ClientConnector.swift) or LWS_WRITE_RAW (ServiceCore+ClientLink.swift) is no longer raw
            """)
    }
}

/// A listening TCP socket on 127.0.0.1 and an ephemeral port.
struct LoopbackListener {
    let fd: Int32
    let port: Int

    init(backlog: Int32) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw PeerFailed(description: "socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, backlog) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ready else {
            Foundation.close(fd)
            throw PeerFailed(description: "could not listen on 127.0.0.1")
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// The next connection in the accept queue, waiting at most 5 s; -1 if none.
    func accept() -> Int32 {
        var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard Glibc.poll(&poll, 1, 5000) == 1 else { return -1 }
        return Glibc.accept(fd, nil, nil)
    }

    func close() { Foundation.close(fd) }
}
