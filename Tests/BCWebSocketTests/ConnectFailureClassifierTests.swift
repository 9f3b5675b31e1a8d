@testable import BCWebSocket
import Testing
import TestSupport

@Suite("lws connection errors become typed failures, in words that name no library")
struct ConnectFailureClassifierTests {
    @Test("what lws 4.1.6 says, and what it means")
    func classifies() {
        let classify = ConnectFailureClassifier.classify
        #expect(classify("HS: ws upgrade response not 101", 503, true, false, false) == .httpStatus(503))
        #expect(classify("HS: ws upgrade unauthorized", 0, true, false, false) == .httpStatus(401))
        #expect(classify("Unable to connect", 0, false, false, false) == .refused)
        #expect(classify("connect SSL err 1: error:00000001:lib(0)::reason(1)", 0, false, true, false)
            == .tls("the TLS handshake failed"))
        guard case .tls(let detail) = classify("connect SSL err 1", 0, false, true, true) else {
            Issue.record("expected .tls")
            return
        }
        #expect(detail == "server certificate not trusted")
        #expect(classify("HS: ACCEPT missing", 0, true, false, false) == .other("the connection could not be made"))
        #expect(classify("", 0, false, false, false) == .other("the connection could not be made"))
        #expect(classify("read failed", 0, true, false, false)
            == .other("the server closed the connection before answering the WebSocket upgrade"))
    }

    @Test("which failures are worth retrying")
    func retryable() {
        #expect(WebSocketConnectFailure.httpStatus(503).isRetryable)
        #expect(WebSocketConnectFailure.httpStatus(429).isRetryable)
        #expect(!WebSocketConnectFailure.httpStatus(401).isRetryable)
        #expect(!WebSocketConnectFailure.httpStatus(403).isRetryable)
        #expect(!WebSocketConnectFailure.httpStatus(404).isRetryable)
        #expect(WebSocketConnectFailure.refused.isRetryable)
        #expect(WebSocketConnectFailure.timedOut(after: .seconds(10)).isRetryable)
        #expect(!WebSocketConnectFailure.tls("untrusted").isRetryable)
        #expect(WebSocketConnectFailure.httpStatus(403).description == "server refused the upgrade with HTTP 403 (forbidden)")
    }
}
