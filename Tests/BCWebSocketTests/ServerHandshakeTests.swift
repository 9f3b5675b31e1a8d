@testable import BCWebSocket
import Foundation
import Testing

/// The server's reading of an upgrade request, without sockets: a right request is agreed however it is cut, each
/// wrong one is refused with an answer that says why, and what a client sends is held only up to the cap.
@Suite("Server handshake")
struct ServerHandshakeTests {
    /// RFC 6455 1.3's example key and its accept value.
    static let key = "dGhlIHNhbXBsZSBub25jZQ=="
    static let accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="

    static func request(_ extra: String = "", key: String = key, version: String? = "13") -> String {
        "GET /chat HTTP/1.1\r\nHost: 127.0.0.1:9000\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\n" + (version.map { "Sec-WebSocket-Version: \($0)\r\n" } ?? "") + extra
            + "\r\n"
    }

    /// Feeds `text` (and `after`) in pieces of `chunk` bytes (0: whole); the first outcome that is not `.needMore`.
    private func consume(_ text: String, after: [UInt8] = [], chunk: Int = 0, deflate: Bool = true)
        -> ServerHandshake.Outcome {
        var handshake = ServerHandshake(acceptsDeflate: deflate)
        let bytes = Array(text.utf8) + after
        let size = chunk == 0 ? max(1, bytes.count) : chunk
        var start = 0
        while start < bytes.count {
            let piece = Array(bytes[start..<min(bytes.count, start + size)])
            start += size
            let outcome = piece.withUnsafeBytes { handshake.consume($0) }
            if outcome != .needMore { return outcome }
        }
        return .needMore
    }

    private func answer(_ outcome: ServerHandshake.Outcome) -> String {
        switch outcome {
        case .accepted(_, let answer, _), .refused(let answer, _): String(decoding: answer, as: UTF8.self)
        case .needMore: ""
        }
    }

    @Test("a right request is agreed cut at every byte, with the accept hash, and says where the frames begin")
    func agreedAnywhere() {
        let frames: [UInt8] = [0x81, 0x80, 1, 2, 3, 4]
        let request = Self.request()
        for chunk in 0...Array(request.utf8).count + frames.count {
            let outcome = consume(request, after: frames, chunk: chunk)
            guard case .accepted(let deflate, let answer, let consumed) = outcome else {
                Issue.record("chunk \(chunk): \(outcome)")
                return
            }
            #expect(deflate == nil)
            #expect(String(decoding: answer, as: UTF8.self) == "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Accept: \(Self.accept)\r\n\r\n")
            // What the last piece held past the head is frames.
            let total = Array(request.utf8).count + frames.count
            let size = chunk == 0 ? total : chunk
            let lastStart = ((Array(request.utf8).count - 1) / size) * size
            #expect(lastStart + consumed == Array(request.utf8).count, "chunk \(chunk)")
        }
    }

    @Test("a request is still waited for until its blank line, however it is trickled")
    func trickled() {
        let request = Array(Self.request().utf8)
        var handshake = ServerHandshake(acceptsDeflate: true)
        for (index, byte) in request.enumerated() {
            let outcome = [byte].withUnsafeBytes { handshake.consume($0) }
            if index < request.count - 1 {
                #expect(outcome == .needMore, "byte \(index)")
            } else if case .accepted = outcome {
            } else {
                Issue.record("the last byte did not agree: \(outcome)")
            }
        }
    }

    @Test("each wrong request is refused with 400 (426 for a version) and words that say what was wrong", arguments: [
        ("POST /chat HTTP/1.1\r\nHost: h\r\n\r\n", "400", "does not begin with GET"),
        ("\u{16}\u{3}\u{1}\u{2}\u{0}", "400", "does not begin with GET"),
        ("GET /chat HTTP/1.0\r\nHost: h\r\n\r\n", "400", "bad request line"),
        ("GET  HTTP/1.1\r\n\r\n", "400", "bad request line"),
        (request().replacingOccurrences(of: "Host: 127.0.0.1:9000\r\n", with: ""), "400", "no Host"),
        (request("Host: other\r\n"), "400", "more than one Host"),
        (request().replacingOccurrences(of: "Upgrade: websocket", with: "Upgrade: h2c"), "400", "Upgrade: websocket"),
        (request().replacingOccurrences(of: "keep-alive, Upgrade", with: "keep-alive"), "400", "Connection: Upgrade"),
        (request(version: nil), "400", "no Sec-WebSocket-Version"),
        (request(version: "8"), "426", "not 13"),
        (request("Sec-WebSocket-Version: 13\r\n"), "426", "not 13"),
        (request(key: "c2hvcnQ="), "400", "base64 of 16 bytes"),
        (request(key: "not base64 at all!!!!!!!"), "400", "base64 of 16 bytes"),
        (request("Sec-WebSocket-Key: \(key)\r\n"), "400", "base64 of 16 bytes"),
        (request().replacingOccurrences(of: "Sec-WebSocket-Key: \(key)\r\n", with: ""), "400", "no Sec-WebSocket-Key"),
        (request("No colon here\r\n"), "400", "not name: value"),
        (request(" folded: value\r\n"), "400", "not name: value"),
    ] as [(String, String, String)])
    func refused(request: String, status: String, says: String) {
        for chunk in [0, 1] {
            let outcome = consume(request, chunk: chunk)
            guard case .refused(let answer, let reason) = outcome else {
                Issue.record("not refused: \(outcome)")
                return
            }
            let text = String(decoding: answer, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 \(status) "), "\(text)")
            #expect(reason.contains(says), "\(reason)")
            #expect(text.hasSuffix(reason + "\n"), "the body says why")
            if status == "426" { #expect(text.contains("\r\nSec-WebSocket-Version: 13\r\n")) }
            // Whatever the request held, the answer is printable ASCII lines.
            #expect(answer.allSatisfy { $0 == 0x0A || $0 == 0x0D || (0x20..<0x7F).contains($0) })
        }
    }

    @Test("a head of exactly 16 KiB is read; one that never ends is refused at the cap, not when memory runs out")
    func cap() {
        let base = Self.request()
        let padding = ServerHandshake.maxRequestBytes - Array(base.utf8).count - 5
        let exact = Self.request("X-Pad: " + String(repeating: "p", count: padding) + "\r\n")
        #expect(Array(exact.utf8).count == ServerHandshake.maxRequestBytes + 4)
        for chunk in [0, 1000, 4096] {
            if case .accepted = consume(exact, chunk: chunk) {} else { Issue.record("chunk \(chunk): not agreed") }
        }
        var handshake = ServerHandshake(acceptsDeflate: true)
        let endless = Array(("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 1 << 20)).utf8)
        var outcome = ServerHandshake.Outcome.needMore
        var fed = 0
        while outcome == .needMore, fed < endless.count {
            let piece = Array(endless[fed..<min(endless.count, fed + 1000)])
            fed += piece.count
            outcome = piece.withUnsafeBytes { handshake.consume($0) }
        }
        guard case .refused(_, let reason) = outcome else {
            Issue.record("an endless head was not refused: \(outcome)")
            return
        }
        #expect(reason.contains("16 KiB"))
        #expect(fed <= ServerHandshake.maxRequestBytes + 1004, "refused at the cap, after \(fed) bytes")
    }

    @Test("permessage-deflate: the first acceptable offer is agreed and answered with what it asked", arguments: [
        ("permessage-deflate", "permessage-deflate", 15, false),
        ("permessage-deflate; client_max_window_bits", "permessage-deflate", 15, false),
        ("permessage-deflate; server_no_context_takeover", "permessage-deflate; server_no_context_takeover", 15, true),
        ("permessage-deflate; server_max_window_bits=8", "permessage-deflate; server_max_window_bits=8", 8, false),
        ("permessage-deflate; server_max_window_bits=\"10\"; client_no_context_takeover; client_max_window_bits=9",
         "permessage-deflate; server_max_window_bits=10", 10, false),
        // Declined offers are skipped: an unknown parameter, a repeated one, a value out of range, another extension.
        ("x-webkit-deflate-frame, permessage-deflate; unknown=1, permessage-deflate; server_no_context_takeover",
         "permessage-deflate; server_no_context_takeover", 15, true),
        ("permessage-deflate; server_max_window_bits=16, permessage-deflate; server_max_window_bits",
         nil, 15, false),
        ("permessage-deflate; server_no_context_takeover; server_no_context_takeover, permessage-deflate",
         "permessage-deflate", 15, false),
        ("permessage-deflate; server_no_context_takeover=1; client_max_window_bits=7", nil, 15, false),
    ] as [(String, String?, Int, Bool)])
    func deflateOffers(offers: String, answered: String?, bits: Int, noContext: Bool) {
        let outcome = consume(Self.request("Sec-WebSocket-Extensions: \(offers)\r\n"))
        guard case .accepted(let deflate, _, _) = outcome else {
            Issue.record("not agreed: \(outcome)")
            return
        }
        let text = answer(outcome)
        if let answered {
            #expect(text.contains("\r\nSec-WebSocket-Extensions: \(answered)\r\n"), "\(text)")
            #expect(deflate?.serverMaxWindowBits == bits && deflate?.serverNoContextTakeover == noContext)
        } else {
            #expect(deflate == nil)
            #expect(!text.contains("Sec-WebSocket-Extensions"))
        }
    }

    @Test("offers spread over repeated Sec-WebSocket-Extensions headers are read in order; a server without deflate declines")
    func repeatedExtensionHeaders() {
        let request = Self.request("Sec-WebSocket-Extensions: permessage-deflate; bad\r\n"
            + "Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=12\r\n")
        guard case .accepted(let deflate, _, _) = consume(request) else {
            Issue.record("not agreed")
            return
        }
        #expect(deflate?.serverMaxWindowBits == 12)
        guard case .accepted(nil, let answer, _) = consume(request, deflate: false) else {
            Issue.record("deflate agreed by a server that does not take it")
            return
        }
        #expect(!String(decoding: answer, as: UTF8.self).contains("Extensions"))
    }

    @Test("random bytes never crash the reader and end refused or waiting, within the cap")
    func noise() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var bytes = Array("GET ".utf8)
            bytes += (0..<Int.random(in: 0..<3000, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var handshake = ServerHandshake(acceptsDeflate: true)
            let outcome = bytes.withUnsafeBytes { handshake.consume($0) }
            if case .accepted = outcome { Issue.record("noise was agreed") }
        }
    }
}
