import BCListener
import BCMessages
import Testing

/// What a person reads for each event and failure.
@Suite struct DescriptionTests {
    static let viewers = "{\"t\":23,\"online_viewer_num\":44,\"total_viewer_num\":120}"
    static let decodingError: BCDecodingError = {
        do throws(BCDecodingError) {
            _ = try BCMessageDecoder().decode("{\"t\":23,\"online_viewer_num\":\"many\",\"total_viewer_num\":1}")
        } catch {
            return error
        }
        fatalError("expected a decoding error")
    }()

    static let events: [(BCListenerEvent, String)] = [
        (.connected(key: Sample.key), "connected to online.mirrativ.com"),
        (.subscribed(key: Sample.key), "subscribed to channel 118f91f:UdoBre1M"),
        (.message(Sample.decoded(viewers), raw: viewers, key: Sample.key, receivedAt: Sample.receivedAt),
         "t=23 viewerCountChanged: \(viewers)"),
        (.undecodable(nil, raw: "HELLO", reason: "unknown command \"HELLO\" in: HELLO"),
         "skipped a line: unknown command \"HELLO\" in: HELLO"),
        (.undecodable(decodingError, raw: "MSG\t…", reason: decodingError.description),
         "skipped a line: t=23 (viewerCountChanged) at online_viewer_num: expected an integer or a numeric string, "
            + "found \"many\" in {\"t\":23,\"online_viewer_num\":\"many\",\"total_viewer_num\":1}"),
        (.serverError("bad key"), "the server sent ERR: bad key"),
        (.serverError(""), "the server sent ERR without details"),
        (.disconnected(.pingTimeout), "lost the connection to online.mirrativ.com: no ACK to PING: the link is dead"),
        (.reconnecting(attempt: 2, delay: .milliseconds(3200), reason: .timedOut(after: .seconds(10))),
         "cannot reach online.mirrativ.com: connection timed out after 10 s; retrying in 3.2 s (attempt 2)"),
        (.reconnecting(attempt: 1, delay: .seconds(1), reason: .closed(code: 1006, reason: "")),
         "connection to online.mirrativ.com lost: closed with code 1006 (connection lost); "
            + "reconnecting in 1 s (attempt 1)"),
        (.reconnecting(attempt: 3, delay: .milliseconds(850), reason: .httpStatus(503)),
         "cannot reach online.mirrativ.com: HTTP 503 Service Unavailable instead of a WebSocket; "
            + "retrying in 850 ms (attempt 3)"),
        (.ended(.liveEnded(.init())), "the live ended (t=8 liveEnded); stopped listening"),
        (.ended(nil), "the live ended (its message did not decode); stopped listening"),
        (.failed(.rejected(.httpStatus(404))),
         "online.mirrativ.com rejected the connection: HTTP 404 Not Found instead of a WebSocket; not retrying, as it "
            + "would be rejected again (check the URL: bcsvr listens on wss://<broadcast_host>/)"),
        (.failed(.rejected(.httpStatus(403))),
         "online.mirrativ.com rejected the connection: HTTP 403 Forbidden instead of a WebSocket; not retrying, as it "
            + "would be rejected again (the server does not let this client in)"),
        (.failed(.retriesExhausted(attempts: 5, lastFailure: .dnsFailed)),
         "cannot reach online.mirrativ.com: the host name does not resolve; giving up after 5 attempts"),
        (.failed(.retriesExhausted(attempts: 1, lastFailure: .refused)),
         "cannot reach online.mirrativ.com: connection refused; giving up after 1 attempt"),
    ]

    @Test(arguments: events)
    func eachEventReadsAsASentence(_ event: BCListenerEvent, _ expected: String) {
        #expect(event.description(host: Sample.host) == expected)
    }

    @Test func withoutAHostTheEventNamesTheServer() {
        #expect(BCListenerEvent.connected(key: Sample.key).description == "connected to the server")
    }

    @Test(arguments: [
        (BCTransportFailure.dnsFailed, "the host name does not resolve"),
        (.refused, "connection refused"),
        (.timedOut(after: .seconds(10)), "connection timed out after 10 s"),
        (.timedOut(after: .milliseconds(2500)), "connection timed out after 2.5 s"),
        (.timedOut(after: .seconds(90)), "connection timed out after 1 min 30 s"),
        (.timedOut(after: .seconds(120)), "connection timed out after 2 min"),
        (.tls("certificate has expired"), "TLS handshake failed: certificate has expired"),
        (.tls(""), "TLS handshake failed"),
        (.httpStatus(599), "HTTP 599 instead of a WebSocket"),
        (.closed(code: 1000, reason: "bye"), "closed with code 1000 (normal closure): bye"),
        (.closed(code: 4321, reason: ""), "closed with code 4321"),
        (.pingTimeout, "no ACK to PING: the link is dead"),
        (.other("ENETUNREACH"), "ENETUNREACH"),
    ])
    func eachTransportFailureSaysWhatHappened(_ failure: BCTransportFailure, _ expected: String) {
        #expect(failure.description == expected)
    }

    @Test(arguments: [(400, false), (401, false), (403, false), (404, false), (410, false), (408, true), (429, true),
                      (500, true), (503, true), (302, true), (200, true)])
    func onlyTheRejectingStatusesAreFinal(_ status: Int, _ retryable: Bool) {
        #expect(BCTransportFailure.httpStatus(status).isRetryable == retryable)
    }
}
