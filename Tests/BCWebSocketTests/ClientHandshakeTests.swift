@testable import BCWebSocket
import Foundation
import Testing

/// The client's upgrade, without sockets: the request it writes, and every way an answer can be wrong.
@Suite("Client handshake")
struct ClientHandshakeTests {
    /// RFC 6455 1.3's example key, whose accept value the RFC gives.
    private static let nonce = Array(Data(base64Encoded: "dGhlIHNhbXBsZSBub25jZQ==")!)
    private static let accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="

    private func answer(_ head: String, deflate: Bool = false, subprotocol: String? = nil,
                        chunk: Int = 0) -> ClientHandshake.Outcome {
        var handshake = ClientHandshake(nonce: Self.nonce, offersDeflate: deflate, subprotocol: subprotocol)
        let bytes = Array(head.utf8)
        let size = chunk == 0 ? bytes.count : chunk
        var start = 0
        while start < bytes.count {
            let outcome = Array(bytes[start..<min(bytes.count, start + size)]).withUnsafeBytes { handshake.consume($0) }
            start += size
            if outcome != .needMore { return outcome }
        }
        return .needMore
    }

    private static func ok(_ extra: String = "") -> String {
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(accept)\r\n\(extra)\r\n"
    }

    @Test("the accept value is RFC 6455's own example")
    func acceptValue() {
        #expect(ClientHandshake.accept(for: "dGhlIHNhbXBsZSBub25jZQ==") == Self.accept)
    }

    @Test("the request says what RFC 6455 4.1 asks, and refuses a header value with a line break")
    func request() throws {
        let url = try #require(WebSocketURL(string: "ws://example.com:8080/ws?x=1"))
        let handshake = ClientHandshake(nonce: Self.nonce, offersDeflate: true, subprotocol: "chat")
        let text = String(decoding: try handshake.request(url: url, origin: "https://a.example").get(), as: UTF8.self)
        #expect(text.hasPrefix("GET /ws?x=1 HTTP/1.1\r\nHost: example.com:8080\r\n"))
        for line in ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
                     "Sec-WebSocket-Version: 13", "Origin: https://a.example", "Sec-WebSocket-Protocol: chat",
                     "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits"] {
            #expect(text.contains("\r\n\(line)\r\n"), "missing \(line)")
        }
        #expect(text.hasSuffix("\r\n\r\n"))
        #expect(throws: WebSocketConnectFailure.self) {
            try handshake.request(url: url, origin: "https://a.example\r\nX-Evil: 1").get()
        }
    }

    @Test("a right answer opens, cut at any byte, and says where the frames begin", arguments: [0, 1, 5])
    func accepted(chunk: Int) {
        let head = Self.ok()
        let outcome = answer(head + "\u{81}\u{0}", chunk: chunk)
        if chunk == 0 {
            #expect(outcome == .accepted(.init(deflate: false), consumed: head.utf8.count))
        } else {
            guard case .accepted(let agreement, let consumed) = outcome else {
                Issue.record("not accepted: \(outcome)")
                return
            }
            #expect(!agreement.deflate && consumed <= chunk)
        }
    }

    @Test("permessage-deflate is agreed only when offered, with parameters we can take")
    func deflate() {
        let agreed = "Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover; server_max_window_bits=10\r\n"
        guard case .accepted(let agreement, _) = answer(Self.ok(agreed), deflate: true) else {
            Issue.record("deflate answer refused")
            return
        }
        #expect(agreement.deflate)
        #expect(answer(Self.ok(agreed), deflate: false).isFailure(saying: "did not offer"))
        let bad = "Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=99\r\n"
        #expect(answer(Self.ok(bad), deflate: true).isFailure(saying: "parameter"))
    }

    /// Found by the fuzzer (Fuzz/handshake): a parameter with no name (an empty one between semicolons, or `=`
    /// alone) was split into no pieces and its name read at index 0, a trap: any server could crash the client
    /// by agreeing to deflate that way.
    @Test("a deflate parameter without a name is refused, not read", arguments: [
        "permessage-deflate; ;", "permessage-deflate; =10",
        "permessage-deflate; \"\"",
    ])
    func namelessParameter(extensions: String) {
        let head = Self.ok("Sec-WebSocket-Extensions: \(extensions)\r\n")
        #expect(answer(head, deflate: true).isFailure(saying: "parameter"), "\(answer(head, deflate: true))")
    }

    @Test("each wrong answer fails with words that say what was wrong", arguments: [
        ("HTTP/1.1 403 Forbidden\r\n\r\n", "403"),
        ("SSH-2.0-OpenSSH\r\n", "not HTTP"),
        ("HTTP/1.1 101 Switching\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: x\r\n\r\n", "Upgrade: websocket"),
        ("HTTP/1.1 101 Switching\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: AAAA\r\n\r\n",
         "Accept"),
        ("HTTP/1.1 101 Switching\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: "
            + "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\nSec-WebSocket-Protocol: chat\r\n\r\n", "subprotocol"),
        ("HTTP/1.1 1011 Nope\r\n\r\n", "status line"),
    ])
    func wrong(head: String, says: String) {
        #expect(answer(head).isFailure(saying: says), "\(answer(head))")
    }

    @Test("an answer that never ends its headers fails at 16 KiB, not when memory runs out")
    func endless() {
        let head = "HTTP/1.1 101 Switching\r\n" + String(repeating: "X-Pad: yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\r\n", count: 2_000)
        #expect(answer(head, chunk: 1000).isFailure(saying: "16 KiB"))
    }

    /// Found by reasoning about the fuzzer's check that an answer read whole and cut into chunks opens alike: a
    /// chunk that ended inside the blank line of a head of exactly 16 KiB failed, the same bytes in one chunk
    /// opened.
    @Test("a head of exactly 16 KiB opens however it is cut", arguments: [0, 1000, 16_385, 16_386])
    func headAtTheCap(chunk: Int) {
        let start = Self.ok().dropLast()  // without its blank line ("\r\n" is one Character)
        let padding = ClientHandshake.maxAnswerBytes - start.utf8.count - "X-Pad: ".utf8.count
        let head = start + "X-Pad: " + String(repeating: "y", count: padding) + "\r\n\r\n"
        #expect(head.utf8.count == ClientHandshake.maxAnswerBytes + 4)
        guard case .accepted = answer(head, chunk: chunk) else {
            Issue.record("refused in chunks of \(chunk): \(answer(head, chunk: chunk))")
            return
        }
    }

    @Test("control characters of an answer reach the error escaped")
    func escaped() {
        guard case .failed(let failure) = answer("\u{1B}[2J\u{7}garbage") else {
            Issue.record("garbage accepted")
            return
        }
        #expect(!failure.description.contains("\u{1B}") && failure.description.contains("\\x1b"))
    }
}

private extension ClientHandshake.Outcome {
    func isFailure(saying words: String) -> Bool {
        guard case .failed(let failure) = self else { return false }
        return failure.description.contains(words)
    }
}
