// The libFuzzer target of the server's upgrade: a client's request, through ServerHandshake.consume.
//
// Input: one byte of settings, then what the client sends (its request, maybe frames after it). Settings: bit 0
// the server accepts permessage-deflate, bits 1-3 how the request is cut into chunks (0: a byte at a time, else
// pieces of 1 to 2^n+1 bytes).
//
// Holds, for every input: no trap and no bad memory access; a request agreed says where its head ended (inside
// the last chunk, just after the first blank line, no longer than the cap), starts `GET `, and its answer is a
// 101 with the accept hash of its one key and deflate only when the server takes it; a refusal's answer is a
// 400 or 426 of printable ASCII (what the client wrote is quoted escaped) and its words stay short; what is held
// never passes the cap; and the request read whole and cut into chunks gives the same outcome (a refusal for not
// beginning with GET may quote fewer of the first bytes when they came short).

import Foundation
@testable import BCWebSocket

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let settings = data[0]
    let request = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let deflate = settings & 1 != 0
    let whole = FuzzServerHandshake.read(request, cuts: [request.count], deflate: deflate)
    let cut = FuzzServerHandshake.read(request, cuts: chunkSizes(request.count, pattern: Int(settings >> 1 & 7)),
                                       deflate: deflate)
    if whole != cut, !FuzzServerHandshake.bothNotGET(whole, cut) {
        fatalError("the request read whole and cut into chunks differ:\n  whole: \(whole)\n  cut:   \(cut)")
    }
    return 0
}

enum FuzzServerHandshake {
    enum Reading: Equatable {
        case needMore
        /// `headEnd`: where the frames begin, counted from the start of the request.
        case accepted(ServerHandshake.Deflate?, answer: [UInt8], headEnd: Int)
        case refused(answer: [UInt8], reason: String)
    }

    static func read(_ request: UnsafeRawBufferPointer, cuts: [Int], deflate: Bool) -> Reading {
        var handshake = ServerHandshake(acceptsDeflate: deflate)
        var start = 0
        for size in cuts {
            let outcome = withExactChunk(request, start..<start + size) { handshake.consume(UnsafeRawBufferPointer($0)) }
            let before = start
            start += size
            switch outcome {
            case .needMore:
                require(start < ServerHandshake.maxRequestBytes + 4, "\(start) bytes held past the cap")
                continue
            case .accepted(let agreed, let answer, let consumed):
                require(consumed >= 1 && consumed <= size, "consumed \(consumed) of a chunk of \(size)")
                let headEnd = before + consumed
                check(accepted: Array(request[..<headEnd]), agreed, answer, deflate)
                return .accepted(agreed, answer: answer, headEnd: headEnd)
            case .refused(let answer, let reason):
                check(refused: answer, reason)
                return .refused(answer: answer, reason: reason)
            }
        }
        return .needMore
    }

    /// The head ends with its first blank line within the cap and starts GET; the answer is a 101 with the accept
    /// hash of the request's key, and agrees to deflate only when the server takes it.
    static func check(accepted head: [UInt8], _ deflate: ServerHandshake.Deflate?, _ answer: [UInt8],
                      _ acceptsDeflate: Bool) {
        require(head.count >= 4 && head.suffix(4) == [13, 10, 13, 10], "an accepted head without its blank line")
        require(head.count <= ServerHandshake.maxRequestBytes + 4)
        require(head.starts(with: Array("GET ".utf8)), "accepted a request that is not GET")
        for index in 0..<head.count - 4 where head[index..<index + 4] == [13, 10, 13, 10] {
            fatalError("accepted past the first blank line, at \(index)")
        }
        let text = String(decoding: answer, as: UTF8.self)
        require(text.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n") && text.hasSuffix("\r\n\r\n"))
        require(acceptsDeflate || deflate == nil, "deflate agreed by a server that does not take it")
        require((deflate != nil) == text.contains("Sec-WebSocket-Extensions: permessage-deflate"))
        if let deflate { require((8...15).contains(deflate.serverMaxWindowBits)) }
        printable(answer)
    }

    static func check(refused answer: [UInt8], _ reason: String) {
        let text = String(decoding: answer, as: UTF8.self)
        require(text.hasPrefix("HTTP/1.1 400 Bad Request\r\n") || text.hasPrefix("HTTP/1.1 426 Upgrade Required\r\n"))
        require(reason.unicodeScalars.count <= 600, "a reason of \(reason.count) characters")
        printable(answer)
    }

    /// Lines of printable ASCII: nothing a client wrote reaches the answer (or a log) raw.
    static func printable(_ answer: [UInt8]) {
        for byte in answer where !(byte == 10 || byte == 13 || (0x20..<0x7F).contains(byte)) {
            fatalError("the byte \(byte) in an answer: \(String(decoding: answer, as: UTF8.self).debugDescription)")
        }
    }

    static func bothNotGET(_ left: Reading, _ right: Reading) -> Bool {
        func notGET(_ reading: Reading) -> Bool {
            guard case .refused(_, let reason) = reading else { return false }
            return reason.hasPrefix("not a WebSocket upgrade: the request does not begin with GET")
        }
        return notGET(left) && notGET(right)
    }
}
