@testable import BCWebSocket
import Testing
import TestSupport

@Suite("lws connection errors become typed failures, in words that name no library")
struct ConnectFailureClassifierTests {
    /// lws 4.1.6's texts (lib/roles/http/client/client-handshake.c, lib/core-net/close.c) and other versions'
    /// wording of the same failures; `LibWebSocketsAssumptionsTests` checks the installed library's.
    @Test("what lws says, and what it means", arguments: [
        ("Unable to connect", WebSocketConnectFailure.refused),
        ("connect failed", .refused),
        ("conn fail: errno 111: Connection refused", .refused),
        ("Peer hung up", .refused),
        ("closed before established", .timedOut(after: .seconds(3))),
        ("timeout", .timedOut(after: .seconds(3))),
        ("Timed out waiting server reply", .timedOut(after: .seconds(3))),
        ("", .other("the connection could not be made")),
        ("something new", .other("the connection could not be made")),
    ])
    func classifies(message: String, expected: WebSocketConnectFailure) {
        #expect(ConnectFailureClassifier.classify(message: message, elapsed: .seconds(3)) == expected)
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
