import BCConsole
import BCListener
import BCMessages
import BCReplay
import Foundation
import Synchronization
import Testing

/// `ListenSession`'s forwarder, what `listen --publish` hands every event to: made once per channel with that
/// channel's number and key, it is handed the channel's messages in the order they arrived, with a count of its
/// own, before the session ends. Two channels of one replayed live, over loopback.
@Suite(.timeLimit(.minutes(1))) struct ListenSessionTests {
    /// What the forwarders saw, by key: each message's `t` and the forwarder's own count at that message.
    final class Seen: Sendable {
        let made = Mutex<[Int: String]>([:])
        let messages = Mutex<[String: [(t: Int, count: Int)]]>([:])
    }

    @Test func eachChannelsForwarderIsHandedItsMessagesInOrder() async throws {
        let playlist = try FixtureFolder.loader().load(arguments: ["23-viewer-count-changed-44-online", "gift",
                                                                   "8-live-ended-bare"])
        let server = try await ReplayServer(schedule: ReplaySchedule(items: playlist.items,
                                                                     options: .init(interval: .zero)))
        let url = try #require(URL(string: "ws://\(server.host):\(server.port)/"))
        let keys = ["a:1", "b:2"]
        let listeners = try keys.map {
            ChannelListener(configuration: BCListenerConfiguration(key: try ChannelKey($0), url: url))
        }
        let seen = Seen()
        var session = ListenSession(listeners: listeners, format: .ndjson, count: nil, duration: .seconds(30))
        session.forwarder = { channel, key in
            seen.made.withLock { $0[channel] = key }
            var count = 0
            return { event in
                guard case .message(let response, _, _, _) = event else { return }
                count += 1
                seen.messages.withLock { $0[key, default: []].append((response.t, count)) }
            }
        }
        let outcome = await session.run()
        await server.stop()

        let expected = try playlist.items.map { try BCMessageDecoder().decode($0.text).t }
        #expect(expected.count > 2 && expected.last == 8)
        #expect(seen.made.withLock { $0 } == [0: "a:1", 1: "b:2"])
        let messages = seen.messages.withLock { $0 }
        for key in keys {
            #expect(messages[key]?.map(\.t) == expected, "\(key)")
            #expect(messages[key]?.map(\.count) == Array(1...expected.count), "\(key)")
        }
        #expect(!outcome.failed)
        #expect(outcome.tally.messages == 2 * expected.count)
    }
}
