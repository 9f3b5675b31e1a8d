import CLibWebSockets
import Foundation

/// The client's half of the WebSocket opening handshake (RFC 6455 4.1 and 4.2.2), written and checked here
/// because the client reads its own frames over an lws raw socket (see `FrameReader`, and DESIGN, "The
/// client reads its own frames").
///
/// The answer is hostile input like any other: it is held up to `maxAnswerBytes`, its first bytes must be an
/// HTTP status line, and everything a WebSocket answer must say (101, `Upgrade`, `Connection`, the accept hash,
/// no extension or subprotocol we did not ask for) is checked, each failure with its own words.
struct ClientHandshake {
    /// The most an answer's head (status line and headers) may take.
    static let maxAnswerBytes = 16 * 1024

    /// What the server agreed to.
    struct Agreement: Equatable {
        /// permessage-deflate is on: a message whose first frame has RSV1 set is compressed.
        var deflate = false
    }

    enum Outcome: Equatable {
        /// The answer's head has not ended yet.
        case needMore
        /// The connection is open; `consumed` bytes of the last chunk were the answer, the rest are frames.
        case accepted(Agreement, consumed: Int)
        case failed(WebSocketConnectFailure)
    }

    let key: String
    let offersDeflate: Bool
    let subprotocol: String?
    private var answer: [UInt8] = []

    /// `nonce` is 16 random bytes (RFC 6455 4.1: the key is their base64).
    init(nonce: [UInt8], offersDeflate: Bool, subprotocol: String?) {
        key = Data(nonce).base64EncodedString()
        self.offersDeflate = offersDeflate
        self.subprotocol = subprotocol
    }

    /// Sec-WebSocket-Accept for `key`: base64(SHA-1(key + the RFC's GUID)).
    static func accept(for key: String) -> String {
        let input = Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)
        var digest = [UInt8](repeating: 0, count: 20)
        input.withUnsafeBufferPointer { bytes in
            digest.withUnsafeMutableBufferPointer { bc_lws_sha1(bytes.baseAddress, bytes.count, $0.baseAddress) }
        }
        return Data(digest).base64EncodedString()
    }

    /// The upgrade request, or why it cannot be sent: a header value with a line break or another control
    /// character would let it say something else than asked.
    func request(url: WebSocketURL, origin: String?) -> Result<[UInt8], WebSocketConnectFailure> {
        var lines = [
            "GET \(url.path.isEmpty ? "/" : url.path) HTTP/1.1",
            "Host: \(url.authority)",
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Key: \(key)",
            "Sec-WebSocket-Version: 13",
        ]
        if let origin { lines.append("Origin: \(origin)") }
        if let subprotocol { lines.append("Sec-WebSocket-Protocol: \(subprotocol)") }
        if offersDeflate { lines.append("Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits") }
        for line in lines where line.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return .failure(.other("the upgrade request would carry a control character: \(line.debugDescription)"))
        }
        return .success(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8))
    }

    /// Takes the next bytes of the answer.
    mutating func consume(_ chunk: UnsafeRawBufferPointer) -> Outcome {
        let searchFrom = max(0, answer.count - 3)
        let before = answer.count
        answer.append(contentsOf: chunk.prefix(max(0, Self.maxAnswerBytes + 4 - answer.count)))
        if let bad = Self.notHTTP(answer) { return .failed(bad) }
        guard let end = Self.endOfHead(answer, from: searchFrom) else {
            // Only once all that is held gives no end: a head that ends just at the cap opens however it was cut.
            if answer.count >= Self.maxAnswerBytes + 4 {
                return .failed(.other("malformed handshake: the server's answer has no end of headers within "
                    + "\(Self.maxAnswerBytes / 1024) KiB; not a WebSocket server"))
            }
            return .needMore
        }
        switch check(head: answer[..<end]) {
        case .success(let agreement): return .accepted(agreement, consumed: end + 4 - before)
        case .failure(let failure): return .failed(failure)
        }
    }

    /// A failure as soon as the first bytes cannot start an HTTP status line.
    private static func notHTTP(_ bytes: [UInt8]) -> WebSocketConnectFailure? {
        let prefix = Array("HTTP/".utf8)
        let count = min(bytes.count, prefix.count)
        guard bytes.prefix(count).elementsEqual(prefix.prefix(count)) else {
            return .other("malformed handshake: the server's answer is not HTTP (it begins "
                + "\(TerminalSafeBytes.quoted(bytes.prefix(16))))")
        }
        return nil
    }

    /// Where the head's blank line (CR LF CR LF) begins in `bytes`, searching from `start`.
    static func endOfHead(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 3 < bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }

    private func check(head: ArraySlice<UInt8>) -> Result<Agreement, WebSocketConnectFailure> {
        let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let status = lines.first.map(String.init) ?? ""
        let parts = status.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let code = Int(parts[1]) else {
            return .failure(.other("malformed handshake: bad HTTP status line \(TerminalSafeBytes.quoted(status.utf8.prefix(80)))"))
        }
        guard code == 101 else { return .failure(.httpStatus(code)) }
        var headers: [String: [String]] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else {
                return .failure(.other("malformed handshake: a header line without a colon"))
            }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name, default: []].append(value)
        }
        func tokens(_ name: String) -> [String] {
            (headers[name] ?? []).flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        }
        guard tokens("upgrade").contains("websocket") else {
            return .failure(.other("malformed handshake: a 101 answer without Upgrade: websocket"))
        }
        guard tokens("connection").contains("upgrade") else {
            return .failure(.other("malformed handshake: a 101 answer without Connection: Upgrade"))
        }
        guard headers["sec-websocket-accept"] == [Self.accept(for: key)] else {
            return .failure(.other("the server's Sec-WebSocket-Accept does not match our key: not a WebSocket "
                + "server, or a proxy in the way"))
        }
        if let chosen = headers["sec-websocket-protocol"] {
            guard let subprotocol, chosen == [subprotocol] else {
                return .failure(.other("the server chose subprotocol \(TerminalSafeBytes.quoted(chosen.joined(separator: ",").utf8.prefix(80))), which we did not ask for"))
            }
        }
        var agreement = Agreement()
        for extensionText in (headers["sec-websocket-extensions"] ?? []).flatMap({ $0.split(separator: ",") }) {
            let parameters = extensionText.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard offersDeflate, parameters.first?.lowercased() == "permessage-deflate", !agreement.deflate else {
                return .failure(.other("the server agreed to an extension we did not offer: "
                    + TerminalSafeBytes.quoted(extensionText.utf8.prefix(80))))
            }
            for parameter in parameters.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                }
                // An empty parameter (`permessage-deflate; ;`, `; =1`) has no name: refused like any unknown one.
                switch pair.first?.lowercased() ?? "" {
                case "server_no_context_takeover", "client_no_context_takeover":
                    guard pair.count == 1 else { return .failure(Self.badParameter(parameter)) }
                case "server_max_window_bits", "client_max_window_bits":
                    // Inflating with the largest window reads any smaller one; our own messages go uncompressed.
                    guard pair.count == 2, let bits = Int(pair[1]), (8...15).contains(bits) else {
                        return .failure(Self.badParameter(parameter))
                    }
                default:
                    return .failure(Self.badParameter(parameter))
                }
            }
            agreement.deflate = true
        }
        return .success(agreement)
    }

    private static func badParameter(_ parameter: String) -> WebSocketConnectFailure {
        .other("the server answered permessage-deflate with a parameter we cannot take: "
            + TerminalSafeBytes.quoted(parameter.utf8.prefix(80)))
    }
}
