@testable import BCFleet
import BCListener
import BCMessages
import Foundation
import Testing

/// The pieces of the fleet that need no server: subjects, the bounded buffer, queued requests.
@Suite(.timeLimit(.minutes(1))) struct FleetPiecesTests {
    @Test func aChannelIsTheKeyWithEverythingOutsideTheSafeSetMadeAnUnderscore() {
        #expect(FleetSubjects.channel("118f91f:UdoBre1M") == "118f91f_UdoBre1M")
        #expect(FleetSubjects.channel("a.b*c>d e\u{0}f") == "a_b_c_d_e_f", "no token, wildcard, space or control")
        #expect(FleetSubjects.channel("Ok_-09") == "Ok_-09")
        #expect(FleetSubjects.channel("ライブ") == "___")
        #expect(FleetSubjects.channel("") == "_")
        #expect(FleetSubjects.message(key: "k:1", kind: "gift") == "bcstream.msg.k_1.gift")
        #expect(FleetSubjects.status(key: "k:1") == "bcstream.status.k_1")
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
