// The libFuzzer target of the client's upgrade: a server's answer to it, through ClientHandshake.consume.
//
// Input: one byte of settings, then what the server sends (its answer, maybe frames after it). Settings: bit 0
// the client offers permessage-deflate, bit 1 it asks for the subprotocol "chat", bits 2-4 how the answer is
// cut into chunks (0: a byte at a time, else pieces of 1 to 2^n+1 bytes). The key is RFC 6455's example, whose
// accept value (s3pPLMBiTxaQ9kYGzzhZRbK+xOo=) the seeds carry.
//
// Holds, for every input: no trap and no bad memory access; an answer accepted says where its head ended
// (inside the last chunk, just after the first blank line, the head no longer than the cap) and agrees to
// deflate only when offered; a failure's words hold no control character (what the server wrote is quoted
// escaped) and stay short; what is held never passes the cap; and the answer read whole and cut into chunks
// gives the same outcome (a failure for not being HTTP may quote fewer of the first bytes when they came short).

import Foundation
@testable import BCWebSocket

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let settings = data[0]
    let answer = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let offersDeflate = settings & 1 != 0
    let subprotocol = settings & 2 != 0 ? "chat" : nil
    let whole = FuzzHandshake.read(answer, cuts: [answer.count], offersDeflate: offersDeflate, subprotocol: subprotocol)
    let pattern = Int(settings >> 2 & 7)
    let cut = FuzzHandshake.read(answer, cuts: chunkSizes(answer.count, pattern: pattern),
                                 offersDeflate: offersDeflate, subprotocol: subprotocol)
    if whole != cut, !FuzzHandshake.bothNotHTTP(whole, cut) {
        fatalError("the answer read whole and cut into chunks differ:\n  whole: \(whole)\n  cut:   \(cut)")
    }
    return 0
}

enum FuzzHandshake {
    static let nonce = Array(Data(base64Encoded: "dGhlIHNhbXBsZSBub25jZQ==")!)

    enum Reading: Equatable {
        case needMore
        /// `headEnd`: where the frames begin, counted from the start of the answer.
        case accepted(ClientHandshake.Agreement, headEnd: Int)
        case failed(WebSocketConnectFailure)
    }

    static func read(_ answer: UnsafeRawBufferPointer, cuts: [Int], offersDeflate: Bool,
                     subprotocol: String?) -> Reading {
        var handshake = ClientHandshake(nonce: nonce, offersDeflate: offersDeflate, subprotocol: subprotocol)
        var start = 0
        for size in cuts {
            let outcome = withExactChunk(answer, start..<start + size) { handshake.consume(UnsafeRawBufferPointer($0)) }
            let before = start
            start += size
            switch outcome {
            case .needMore:
                require(start < ClientHandshake.maxAnswerBytes + 4, "\(start) bytes held past the cap")
                continue
            case .accepted(let agreement, let consumed):
                require(consumed >= 1 && consumed <= size, "consumed \(consumed) of a chunk of \(size)")
                let headEnd = before + consumed
                check(accepted: UnsafeRawBufferPointer(rebasing: answer[..<headEnd]), agreement, offersDeflate)
                return .accepted(agreement, headEnd: headEnd)
            case .failed(let failure):
                check(failure)
                return .failed(failure)
            }
        }
        return .needMore
    }

    /// The head ends with its first blank line, within the cap, starts with a 101 status line, and agrees to no
    /// more than was offered.
    static func check(accepted head: UnsafeRawBufferPointer, _ agreement: ClientHandshake.Agreement,
                      _ offersDeflate: Bool) {
        let bytes = Array(head)
        require(bytes.count >= 4 && bytes.suffix(4) == [13, 10, 13, 10], "an accepted head without its blank line")
        require(bytes.count <= ClientHandshake.maxAnswerBytes + 4)
        for index in 0..<bytes.count - 4 where bytes[index..<index + 4] == [13, 10, 13, 10] {
            fatalError("accepted past the first blank line, at \(index)")
        }
        let lineEnd = (0..<bytes.count - 1).first { bytes[$0] == 13 && bytes[$0 + 1] == 10 } ?? bytes.count
        let status = bytes[..<lineEnd].split(separator: 32, maxSplits: 2, omittingEmptySubsequences: false)
        require(status.count >= 2 && status[0].starts(with: Array("HTTP/1.".utf8)) && Array(status[1]) == Array("101".utf8),
                "accepted without a 101 status line")
        require(offersDeflate || !agreement.deflate, "deflate agreed without being offered")
    }

    static func check(_ failure: WebSocketConnectFailure) {
        let words = failure.description
        for scalar in words.unicodeScalars where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
            fatalError("a control character \(scalar.value) in the failure \(words.debugDescription)")
        }
        require(words.unicodeScalars.count <= 600, "a failure of \(words.count) characters")
    }

    static func bothNotHTTP(_ left: Reading, _ right: Reading) -> Bool {
        func notHTTP(_ reading: Reading) -> Bool {
            guard case .failed(.other(let words)) = reading else { return false }
            return words.hasPrefix("malformed handshake: the server's answer is not HTTP")
        }
        return notHTTP(left) && notHTTP(right)
    }
}
