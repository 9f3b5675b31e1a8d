@testable import BCFleet
import Testing

/// What a scraper sent, read as it arrives: the metrics server's only parsing of outside bytes.
@Suite struct MetricsRequestTests {
    private static func read(_ text: String, limit: Int = 8192) -> MetricsRequest {
        MetricsRequest.read(Array(text.utf8), limit: limit)
    }

    @Test func aWholeGetGivesItsMethodAndPathWithoutTheQuery() {
        #expect(Self.read("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n") == .complete(method: "GET", path: "/metrics"))
        #expect(Self.read("GET /metrics?name[]=x HTTP/1.0\r\n\r\n") == .complete(method: "GET", path: "/metrics"))
        #expect(Self.read("HEAD / HTTP/1.1\r\n\r\n") == .complete(method: "HEAD", path: "/"))
    }

    @Test(arguments: ["", "GET /metrics HTTP/1.1\r\n", "GET /metrics HTTP/1.1\r\nHost: x\r\n\r"])
    func aRequestWithoutItsBlankLineIsIncomplete(_ text: String) {
        #expect(Self.read(text) == .incomplete)
    }

    @Test(arguments: ["GET /metrics\r\n\r\n", "GET  /metrics HTTP/1.1\r\n\r\n", "get /metrics HTTP/1.1\r\n\r\n",
                      "GET metrics HTTP/1.1\r\n\r\n", "GET /metrics SPDY/3\r\n\r\n", "\u{1B}[2J / HTTP/1.1\r\n\r\n",
                      "\r\n\r\n"])
    func aBadRequestLineIsMalformed(_ text: String) {
        #expect(Self.read(text) == .malformed)
    }

    @Test func pastTheCapWithoutABlankLineIsTooLarge() {
        let head = "GET /metrics HTTP/1.1\r\nX-Big: "
        #expect(Self.read(head + String(repeating: "b", count: 100), limit: 64) == .tooLarge)
        #expect(Self.read(head + String(repeating: "b", count: 100) + "\r\n\r\n", limit: 64) == .tooLarge)
        #expect(Self.read(head + "b\r\n\r\n", limit: 64) == .complete(method: "GET", path: "/metrics"))
    }

    /// A request dripped a byte at a time is read in work linear in its length: each read looks only at the new
    /// bytes for the blank line, and finds one that straddles two reads.
    @Test func aDrippedRequestIsFoundAcrossReads() {
        let text = Array("GET /metrics HTTP/1.1\r\nX-Slow: \(String(repeating: "a", count: 5000))\r\n\r\n".utf8)
        var received: [UInt8] = []
        var results: [MetricsRequest] = []
        for byte in text {
            let newFrom = received.count
            received.append(byte)
            results.append(MetricsRequest.read(received, newFrom: newFrom, limit: 8192))
        }
        #expect(results.dropLast().allSatisfy { $0 == .incomplete })
        #expect(results.last == .complete(method: "GET", path: "/metrics"))
    }
}
