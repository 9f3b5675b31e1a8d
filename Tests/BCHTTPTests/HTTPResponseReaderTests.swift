@testable import BCHTTP
import BCWebSocket
import Testing

/// The HTTPS client's answer parser, fed bytes as a hostile server would send them: split anywhere, chunked,
/// too large, endless, or not HTTP.
@Suite struct HTTPResponseReaderTests {
    /// Feeds `text` in pieces of `piece` bytes, then the end of the connection if `close`.
    private func read(_ text: String, piece: Int = .max, close: Bool = true,
                      maxBodySize: Int = 1 << 20) -> HTTPResponseReader.Outcome {
        var reader = HTTPResponseReader(maxBodySize: maxBodySize)
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + piece)
            let outcome = bytes[offset..<end].withUnsafeBytes { reader.receive($0) }
            if outcome != .needMore { return outcome }
            offset = end
        }
        return close ? reader.end() : .needMore
    }

    private func answer(_ status: Int, _ body: String) -> HTTPResponseReader.Outcome {
        .complete(HTTPFetchResponse(status: status, body: Array(body.utf8)))
    }

    @Test(arguments: [1, 2, 7, 4096])
    func aLengthChunkedOrClosedBodyIsReadWhateverTheSplit(piece: Int) {
        #expect(read("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", piece: piece, close: false)
            == answer(200, "hello"))
        #expect(read("HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\nA\r\n0123456789\r\n0\r\n"
                     + "Trailer: t\r\n\r\n", piece: piece, close: false) == answer(404, "abc0123456789"))
        #expect(read("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nto the end", piece: piece)
            == answer(200, "to the end"))
        #expect(read("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n", piece: piece, close: false)
            == answer(204, ""))
    }

    @Test func anAnswerCutShortIsTruncated() {
        #expect(read("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf") == .failed(.truncated))
        #expect(read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab") == .failed(.truncated))
        #expect(read("HTTP/1.1 200 OK\r\nContent-") == .failed(.truncated))
    }

    @Test func aBodyPastTheCapStopsTheRead() {
        #expect(read("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n", close: false, maxBodySize: 10)
            == .failed(.bodyTooLarge(limit: 10)))
        #expect(read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\nghijkl\r\n",
                     close: false, maxBodySize: 10) == .failed(.bodyTooLarge(limit: 10)))
        #expect(read("HTTP/1.1 200 OK\r\n\r\n" + String(repeating: "x", count: 11), close: false, maxBodySize: 10)
            == .failed(.bodyTooLarge(limit: 10)))
    }

    @Test func whatIsNotHTTPOrTooLargeAHeadFails() {
        #expect(read("SSH-2.0-OpenSSH\r\n\r\n") == .failed(.other("the server did not answer in HTTP")))
        #expect(read("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n")
            == .failed(.other("the answer's Content-Length is malformed")))
        #expect(read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
            == .failed(.other("the answer's chunk header is malformed")))
        #expect(read("HTTP/1.1 200 OK\r\nX: " + String(repeating: "h", count: 70_000), close: false)
            == .failed(.other("the answer's header is larger than 64 KiB")))
    }

    /// One-byte chunks in one read (each consumed from the front of what is pending) and a head fed a byte at a
    /// time (each search going on where the last stopped): both linear. Quadratic work would take minutes here.
    @Test(.timeLimit(.minutes(1))) func hostileShapesStayLinear() {
        let chunks = String(repeating: "1\r\nx\r\n", count: 200_000)
        #expect(read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks + "0\r\n\r\n", close: false)
            == answer(200, String(repeating: "x", count: 200_000)))
        let head = "HTTP/1.1 200 OK\r\nX: " + String(repeating: "h", count: 60_000) + "\r\nContent-Length: 0\r\n\r\n"
        #expect(read(head, piece: 1, close: false) == answer(200, ""))
    }
}
