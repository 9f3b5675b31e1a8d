@testable import bcstream
@testable import BCFleet
import BCListener
import BCMessages
import Foundation
import Testing

/// The pieces of the fleet that need no server: subjects, published payloads, the bounded buffer, queued requests.
@Suite(.timeLimit(.minutes(1))) struct FleetMessageTests {
    @Test func aChannelIsTheKeyWithEverythingOutsideTheSafeSetMadeAnUnderscore() {
        #expect(FleetSubjects.channel("118f91f:UdoBre1M") == "118f91f_UdoBre1M")
        #expect(FleetSubjects.channel("a.b*c>d e\u{0}f") == "a_b_c_d_e_f", "no token, wildcard, space or control")
        #expect(FleetSubjects.channel("Ok_-09") == "Ok_-09")
        #expect(FleetSubjects.channel("ライブ") == "___")
        #expect(FleetSubjects.channel("") == "_")
        #expect(FleetSubjects.message(key: "k:1", kind: "gift") == "bcstream.msg.k_1.gift")
        #expect(FleetSubjects.status(key: "k:1") == "bcstream.status.k_1")
    }

    private func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func aMessageIsItsNDJSONLinePlusReceivedAtWithAnIDPerFrame() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Payloads/23-viewer-count-changed-44-online.json")
        let raw = try String(contentsOf: fixture, encoding: .utf8)
        let response = try BCMessageDecoder().decode(raw)
        let at = Date(timeIntervalSince1970: 1_700_000_000.25)
        let maker = FleetMessageMaker(run: "run")
        let message = try #require(maker.message(for: .message(response, raw: raw, key: "k:1", receivedAt: at),
                                                 key: "k:1", follow: 3, frame: 7))
        let line = MessageFormatter(format: .ndjson).line(for: response, raw: raw, key: "k:1")
        #expect(String(decoding: message.payload, as: UTF8.self)
            == line.dropLast() + #","receivedAt":"2023-11-14T22:13:20.250Z"}"#)
        #expect(message.subject == "bcstream.msg.k_1.\(response.kind)")
        #expect(message.id == "run-3-7")
        #expect(maker.message(for: .connected(key: "k:1"), key: "k:1", follow: 3, frame: 8) == nil)
    }

    @Test func aFrameThatDoesNotDecodeIsPublishedOnKindErrorWithItsRawText() throws {
        let raw = #"{"t":23,"online":"many"}"#
        let error = try #require(throws: BCDecodingError.self) { try BCMessageDecoder().decode(raw) }
        let maker = FleetMessageMaker(run: "run")
        for event in [BCListenerEvent.undecodable(error, raw: raw, reason: "\(error)"),
                      .undecodable(nil, raw: "MSG\tother\t{}", reason: "a MSG for another channel")] {
            let message = try #require(maker.message(for: event, key: "k:1", follow: 0, frame: 0))
            #expect(message.subject == "bcstream.msg.k_1.error")
            #expect(message.kind == FleetMessage.errorKind)
            let object = try object(message.payload)
            #expect(object["error"] is String)
            #expect(object["raw"] is String)
            #expect(object["key"] as? String == "k:1")
            #expect(object["receivedAt"] is String)
        }
    }

    private func message(_ number: Int) -> FleetMessage {
        FleetMessage(subject: "s", payload: [], id: "\(number)", kind: "k")
    }

    @Test func aFullBufferHoldsTheAppenderUntilTheOldestIsPublished() async throws {
        let buffer = PublishBuffer(capacity: 2)
        await buffer.append(message(1))
        await buffer.append(message(2))
        #expect(buffer.isFull)
        let third = Task { await buffer.append(self.message(3)) }
        // The third append waits: the buffer still holds two.
        while buffer.fullHits == 0 { await Task.yield() }
        #expect(await buffer.first()?.id == "1")
        #expect(buffer.count == 2)
        buffer.removeFirst()
        await third.value
        #expect(buffer.count == 2)
        #expect(buffer.fullHits == 1)
        let published = Task { await buffer.waitUntilRemoved(through: 3) }
        buffer.removeFirst()
        #expect(await buffer.first()?.id == "3")
        buffer.removeFirst()
        await published.value
        buffer.finish()
        #expect(await buffer.first() == nil)
    }

    @Test func aCancelledAppendIsAdmittedSoNothingIsDroppedAtShutdown() async throws {
        let buffer = PublishBuffer(capacity: 1)
        await buffer.append(message(1))
        let waiting = Task { await buffer.append(self.message(2)) }
        while buffer.fullHits == 0 { await Task.yield() }
        waiting.cancel()
        await waiting.value
        #expect(buffer.count == 2, "over its size by one, rather than a message lost")
    }

    @Test func aQueuedRequestMustBeAWebSocketURLAndAKey() {
        let valid = FollowRequest(url: "wss://online.example.com/", key: try! ChannelKey("118f91f:UdoBre1M"))
        #expect((try? FollowRequest.parse(valid.json, subject: "bcstream.follow").get()) == valid)
        #expect(String(decoding: valid.json, as: UTF8.self)
            == #"{"key":"118f91f:UdoBre1M","url":"wss://online.example.com/"}"#)
        for bad in [#"not json"#, #"{"url":"http://x/","key":"k"}"#, #"{"url":"ws://x/","key":""}"#,
                    #"{"url":"ws://x/"}"#, "{\"url\":\"ws://x/\",\"key\":\"\(String(repeating: "k", count: 20_000))\"}"] {
            guard case .failure = FollowRequest.parse(Array(bad.utf8), subject: "bcstream.follow") else {
                Issue.record("accepted \(bad.prefix(60))")
                continue
            }
        }
    }

    /// A key from the queue would go into `SUB\t<key>`: `w1\nSUB\tvictim2` would subscribe the worker to `victim2`.
    @Test("a queued request whose key is not a channel key is refused, naming the subject, the key escaped",
          arguments: ["w1\nSUB\tvictim2\u{1B}[2J", "w1\tvictim", "w 1", "w\u{2066}1", String(repeating: "k", count: 257)])
    func aQueuedRequestWithAHostileKeyIsRefused(key: String) throws {
        struct Wire: Encodable { var url: String; var key: String }
        let data = try JSONEncoder().encode(Wire(url: "wss://online.example.com/", key: key))
        guard case .failure(let problem) = FollowRequest.parse(Array(data), subject: "bcstream.follow") else {
            Issue.record("accepted \(key.debugDescription)")
            return
        }
        #expect(problem.badKey)
        #expect(problem.description.hasPrefix("follow request on bcstream.follow: "))
        #expect(!problem.description.unicodeScalars.contains { ChannelKeyTestsRule.isUnsafe($0) })
    }
}

/// What must never reach a terminal unescaped.
enum ChannelKeyTestsRule {
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
