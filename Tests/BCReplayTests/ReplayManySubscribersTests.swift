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

    /// The server keeps each key's subscribers apart from its clients; a client that moves to another key, one
    /// refused past the channel cap and one that leaves must each leave that index as the clients say.
    @Test("moving to another key, a refusal past maxChannels and a departure each leave the subscriptions right")
    func subscriptionsFollowMovesRefusalsAndDepartures() async throws {
        let item = ReplayItem.fixture(name: "first", json: #"{"t":23,"online_viewer_num":7}"#, file: "generated")
        let schedule = ReplaySchedule(items: [item, item], options: .init(interval: .seconds(3600), speed: .max,
                                                                          loop: false))
        let server = try await ReplayServer(schedule: schedule, limits: ReplayLimits(
            maxChannels: 2, resumeGrace: .milliseconds(200)))
        let activity = Inbox(server.activity)
        let url = try #require(WebSocketURL(string: "ws://127.0.0.1:\(server.port)/"))
        let loop = WebSocketLoop(name: "ReplayManySubscribersTests.moves")
        var configuration = WebSocketClientConfiguration()
        configuration.permessageDeflate = false
        func client() -> (WebSocketLink, Inbox<WebSocketEvent>) {
            let events = Inbox<WebSocketEvent>()
            return (loop.connect(to: url, configuration: configuration) { events.push($0) }, events)
        }
        func message(on key: String, _ events: Inbox<WebSocketEvent>) async throws {
            _ = try await events.first(within: .seconds(10), "a message on \(key)") {
                if case .text(let text) = $0 { text.hasPrefix("MSG\t\(key)\t") } else { false }
            }
        }
        let (mover, moverEvents) = client()
        mover.send("SUB\ta")
        try await message(on: "a", moverEvents)
        mover.send("SUB\tb")
        try await message(on: "b", moverEvents)
        #expect(await server.subscriptions == ["b": 1], "the mover left a")
        _ = try await activity.first(within: .seconds(10), "a's release") { $0 == .released(key: "a") }

        let (other, otherEvents) = client()
        other.send("SUB\tc")
        try await message(on: "c", otherEvents)
        let (third, thirdEvents) = client()
        third.send("SUB\td")
        let err = try await thirdEvents.first(within: .seconds(10), "the ERR line") {
            if case .text(let text) = $0 { text.hasPrefix("ERR") } else { false }
        }
        #expect(err == .text("ERR\tthe server holds 2 channels already"))
        _ = try await thirdEvents.first(within: .seconds(10), "the close") {
            if case .closed(let reason) = $0 { reason.code == 1008 } else { false }
        }
        #expect(await server.subscriptions == ["b": 1, "c": 1], "the refused client subscribed nothing")

        other.close()
        _ = try await activity.first(within: .seconds(10), "c's release") { $0 == .released(key: "c") }
        #expect(await server.subscriptions == ["b": 1])
        #expect(await server.channelCount == 1)
        mover.close()
        await loop.shutdown()
        await server.stop()
    }
}
