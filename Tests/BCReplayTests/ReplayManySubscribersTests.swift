import BCReplay
import BCWebSocket
import Testing
import TestSupport

/// Many subscribers, each with a key of its own (a live each, each channel its own playback), on one server.
@Suite(.timeLimit(.minutes(1)))
struct ReplayManySubscribersTests {
    /// A text frame one subscriber received.
    private struct Received: Sendable {
        let index: Int
        let text: String
    }

    @Test("every one of 300 subscribers, each on its own key, gets that key's first message", arguments: [300])
    func everySubscriberOfItsOwnKeyGetsItsFirstMessage(count: Int) async throws {
        let item = ReplayItem.fixture(name: "first", json: #"{"t":23,"online_viewer_num":7}"#, file: "generated")
        // The second item an hour later: each channel sends its first at once, then waits.
        let schedule = ReplaySchedule(items: [item, item], options: .init(interval: .seconds(3600), speed: .max,
                                                                          loop: false))
        let server = try await ReplayServer(schedule: schedule, limits: ReplayLimits(maxChannels: count),
                                            logsSends: false)
        let url = try #require(WebSocketURL(string: "ws://127.0.0.1:\(server.port)/"))
        let pool = await WebSocketLoopPool.started(connections: count, name: "ReplayManySubscribersTests")
        let received = Inbox<Received>()
        var configuration = WebSocketClientConfiguration()
        configuration.permessageDeflate = false
        var links: [WebSocketLink] = []
        for index in 0..<count {
            let link = pool.loop(for: index).connect(to: url, configuration: configuration) { event in
                if case .text(let text) = event { received.push(Received(index: index, text: text)) }
            }
            link.send("SUB\tlive-\(index)")
            links.append(link)
        }

        var first: [Int: String] = [:]
        while first.count < count {
            guard let frame = try await received.next(within: .seconds(20), "the first message of every key") else {
                break
            }
            if first[frame.index] == nil { first[frame.index] = frame.text }
        }
        #expect(first.count == count, "\(count - first.count) subscribers got nothing")
        #expect((0..<count).allSatisfy { first[$0] == "MSG\tlive-\($0)\t" + item.text },
                "each got its own key's message, first")
        #expect(await server.channelCount == count)

        for link in links { link.close() }
        await pool.shutdown()
        await server.stop()
    }
}
