import Foundation

/// The server's half of the WebSocket opening handshake (RFC 6455 4.2, RFC 7692 5 and 7.1): the client's upgrade
/// request read and checked here, because the server reads its own frames over an lws raw socket (DESIGN, "The
/// server reads its own frames"), and the answer it gets: 101 with the accept hash and the permessage-deflate
/// parameters agreed, or 400 (426 for a WebSocket version other than 13) with what was wrong.
///
/// The request is hostile input like any other: its head is held up to `maxRequestBytes`, its first bytes must
/// start `GET `, and the work is linear in its size. Pure: bytes in, an outcome out.
struct ServerHandshake {
    /// The most a request's head (request line and headers) may take.
    static let maxRequestBytes = 16 * 1024

    /// permessage-deflate as agreed with the client (RFC 7692 7.1).
    struct Deflate: Equatable {
        /// The server starts a fresh compression context for each message.
        var serverNoContextTakeover = false
        /// The server's compression window (2^bits bytes).
        var serverMaxWindowBits = 15
        /// The client asked for `server_max_window_bits`: the answer must say the value.
        var windowBitsAsked = false

        /// The parameters of the answer's Sec-WebSocket-Extensions header.
        var answer: String {
            var text = "permessage-deflate"
            if serverNoContextTakeover { text += "; server_no_context_takeover" }
            if windowBitsAsked { text += "; server_max_window_bits=\(serverMaxWindowBits)" }
            return text
        }
    }

    enum Outcome: Equatable {
        /// The request's head has not ended yet.
        case needMore
        /// The upgrade is agreed (`deflate` nil: no compression); `answer` is the 101 to write; `consumed` bytes of
        /// the last chunk were the request, the rest are frames.
        case accepted(deflate: Deflate?, answer: [UInt8], consumed: Int)
        /// Not a WebSocket upgrade this server takes: `answer` is the error to write before closing, `reason` says
        /// why (for tests and logs; it is in the answer's body too).
        case refused(answer: [UInt8], reason: String)
    }

    /// permessage-deflate may be agreed (`WebSocketServerConfiguration.permessageDeflate`).
    let acceptsDeflate: Bool
    private var request: [UInt8] = []

    init(acceptsDeflate: Bool) {
        self.acceptsDeflate = acceptsDeflate
    }

    /// Takes the next bytes of the request.
    mutating func consume(_ chunk: UnsafeRawBufferPointer) -> Outcome {
        let searchFrom = max(0, request.count - 3)
        let before = request.count
        request.append(contentsOf: chunk.prefix(max(0, Self.maxRequestBytes + 4 - request.count)))
        let method = Array("GET ".utf8)
        let count = min(request.count, method.count)
        guard request.prefix(count).elementsEqual(method.prefix(count)) else {
            return Self.refuse("not a WebSocket upgrade: the request does not begin with GET (it begins "
                + "\(TerminalSafeBytes.quoted(request.prefix(16))))")
        }
        guard let end = ClientHandshake.endOfHead(request, from: searchFrom) else {
            // Only once all that is held gives no end: a head that ends just at the cap is read however it was cut.
            if request.count >= Self.maxRequestBytes + 4 {
                return Self.refuse("the request has no end of headers within \(Self.maxRequestBytes / 1024) KiB")
            }
            return .needMore
        }
        return check(head: request[..<end], consumed: end + 4 - before)
    }

    private func check(head: ArraySlice<UInt8>, consumed: Int) -> Outcome {
        // Split and trimmed as bytes: String's own split works on characters, a grapheme check a byte, and the
        // server reads one request per connection (5,000 at once in the subscribers benchmark).
        let lines = Self.lines(of: head)
        let requestLine = lines[0]
        let parts = requestLine.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].elementsEqual("GET".utf8), !parts[1].isEmpty,
              parts[2].elementsEqual("HTTP/1.1".utf8) else {
            return Self.refuse("bad request line \(TerminalSafeBytes.quoted(requestLine.prefix(80))): "
                + "a WebSocket upgrade is GET <path> HTTP/1.1")
        }
        var headers: [String: [String]] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: 58), colon != line.startIndex,
                  !line[..<colon].contains(where: { $0 == 32 || $0 == 9 }) else {
                return Self.refuse("a header line that is not name: value " + TerminalSafeBytes.quoted(line.prefix(40)))
            }
            let value = Self.trimmed(line[(colon + 1)...])
            headers[String(decoding: line[..<colon], as: UTF8.self).lowercased(), default: []]
                .append(String(decoding: value, as: UTF8.self))
        }
        func tokens(_ name: String) -> [String] {
            (headers[name] ?? []).flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        }
        guard headers["host"]?.count == 1 else {
            return Self.refuse(headers["host"] == nil ? "no Host header" : "more than one Host header")
        }
        guard tokens("upgrade").contains("websocket") else { return Self.refuse("no Upgrade: websocket header") }
        guard tokens("connection").contains("upgrade") else { return Self.refuse("no Connection: Upgrade header") }
        guard let versions = headers["sec-websocket-version"] else { return Self.refuse("no Sec-WebSocket-Version header") }
        guard versions == ["13"] else {
            let reason = "WebSocket version \(TerminalSafeBytes.quoted(versions.joined(separator: ",").utf8.prefix(20))), "
                + "not 13, the one this server speaks"
            return .refused(answer: Self.errorAnswer(status: "426 Upgrade Required",
                                                     extra: "Sec-WebSocket-Version: 13\r\n", body: reason),
                            reason: reason)
        }
        guard let keys = headers["sec-websocket-key"], keys.count == 1, let key = keys.first,
              key.utf8.count == 24, Data(base64Encoded: key)?.count == 16 else {
            return Self.refuse(headers["sec-websocket-key"] == nil ? "no Sec-WebSocket-Key header"
                : "a Sec-WebSocket-Key that is not the base64 of 16 bytes")
        }
        let offers = (headers["sec-websocket-extensions"] ?? []).flatMap { $0.split(separator: ",") }
        let deflate = acceptsDeflate ? offers.lazy.compactMap { Self.acceptable(offer: $0) }.first : nil
        var answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(ClientHandshake.accept(for: key))\r\n"
        if let deflate { answer += "Sec-WebSocket-Extensions: \(deflate.answer)\r\n" }
        answer += "\r\n"
        return .accepted(deflate: deflate, answer: Array(answer.utf8), consumed: consumed)
    }

    /// The agreement a permessage-deflate offer allows, or nil when it is another extension or one whose
    /// parameters this server cannot honour (unknown, repeated, or a value out of range): then it is declined and
    /// the next offer is read (RFC 7692 5.1).
    static func acceptable<Text: StringProtocol>(offer: Text) -> Deflate? {
        let parameters = offer.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parameters.first?.lowercased() == "permessage-deflate" else { return nil }
        var deflate = Deflate()
        var seen: Set<String> = []
        for parameter in parameters.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let name = pair[0].lowercased()
            guard seen.insert(name).inserted else { return nil }
            let value = pair.count == 2 ? Self.unquoted(pair[1]) : nil
            switch name {
            case "server_no_context_takeover":
                guard pair.count == 1 else { return nil }
                deflate.serverNoContextTakeover = true
            case "client_no_context_takeover":
                // Inflating keeps one stream either way; a client that resets it per message reads the same.
                guard pair.count == 1 else { return nil }
            case "server_max_window_bits":
                guard let bits = value.flatMap(Self.windowBits) else { return nil }
                deflate.serverMaxWindowBits = bits
                deflate.windowBitsAsked = true
            case "client_max_window_bits":
                // Inflating with the largest window reads any smaller one: the answer need not limit the client.
                guard pair.count == 1 || value.flatMap(Self.windowBits) != nil else { return nil }
            default:
                return nil
            }
        }
        return deflate
    }

    /// The head's lines, split at CR LF (at least one, maybe empty).
    private static func lines(of head: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = head.startIndex
        var index = head.startIndex
        while index + 1 < head.endIndex {
            if head[index] == 13, head[index + 1] == 10 {
                lines.append(head[start..<index])
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        lines.append(head[start...])
        return lines
    }

    /// `bytes` without the spaces and tabs around it.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == 32 || first == 9 { slice = slice.dropFirst() }
        while let last = slice.last, last == 32 || last == 9 { slice = slice.dropLast() }
        return slice
    }

    /// 8 to 15, written as plain digits (RFC 7692 7.1.2.1).
    private static func windowBits(_ text: String) -> Int? {
        guard (1...2).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              let bits = Int(text), (8...15).contains(bits) else { return nil }
        return bits
    }

    private static func unquoted(_ text: String) -> String {
        guard text.utf8.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
        return String(text.dropFirst().dropLast())
    }

    private static func refuse(_ reason: String) -> Outcome {
        .refused(answer: errorAnswer(status: "400 Bad Request", extra: "", body: reason), reason: reason)
    }

    private static func errorAnswer(status: String, extra: String, body: String) -> [UInt8] {
        let text = body + "\n"
        return Array(("HTTP/1.1 \(status)\r\nConnection: close\r\n\(extra)Content-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(text.utf8.count)\r\n\r\n\(text)").utf8)
    }
}
