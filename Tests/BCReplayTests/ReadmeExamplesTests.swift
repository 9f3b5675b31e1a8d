import BCListener
import BCMessages
import BCReplay
import Foundation
import Testing

/// The README's Swift examples, as they are printed there: if one of them stops compiling or working, this fails.
@Suite("README examples", .timeLimit(.minutes(1)))
struct ReadmeExamplesTests {
    static let payloads = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Payloads").path

    /// "Serve fixtures to your own client from a test", with `ChannelListener` as the client under test.
    @Test("an app's test serves fixtures to its own client, which receives every gift, then the end")
    func serveFixturesToYourClient() async throws {
        // README: begin serving
        let playlist = try FixtureFolder.loader().load(arguments: ["gift", "8-live-ended-bare"])  // BCFixtures' files
        let server = try await ReplayServer(schedule: ReplaySchedule(items: playlist.items,
                                                                     options: .init(interval: .zero)))
        let url = try #require(URL(string: "ws://\(server.host):\(server.port)/"))
        // Point the client under test at `url`: any key it subscribes to plays the playlist, gifts first, then
        // the end of the live.
        // README: end serving

        // README: begin listening
        let listener = ChannelListener(configuration: BCListenerConfiguration(key: try ChannelKey("118f91f:UdoBre1M"), url: url))
        var gifts: [BCResponse.Gift] = []
        for await event in listener {
            switch event {
            case .message(.gift(let gift), _, _, _):
                gifts.append(gift)                       // typed: gift.count is an Int whatever the wire sent
            case .message(let other, _, _, _):
                print(other.summary)
            case .undecodable(let error, let raw, _):
                print("not decoded: \(error.map { "\($0)" } ?? "") \(raw)")   // the session goes on
            case .failed(let failure):
                print(failure)                          // 401/403/404, or --maxAttempts used up
            default:
                break                                   // connected, reconnecting…: the sequence retries itself
            }
        }                                               // ends after the live's end (t=8 or t=123)
        // README: end listening

        let expected = playlist.items.filter { (try? BCMessageDecoder().decode($0.text).t) == 35 }.count
        #expect(expected > 0)
        #expect(gifts.count == expected, "every gift fixture arrived, typed, before the end")
        await server.stop()
    }

    /// "Or in batches", against the same fixtures: every gift arrives, in batches, then the end.
    @Test("the batch example receives every gift of the playlist, then the end, in batches of ready events")
    func batchesOfEvents() async throws {
        let playlist = try ReplayLoader(defaultFolder: Self.payloads).load(arguments: ["gift", "8-live-ended-bare"])
        let server = try await ReplayServer(schedule: ReplaySchedule(items: playlist.items,
                                                                     options: .init(interval: .zero)))
        let url = try #require(URL(string: "ws://\(server.host):\(server.port)/"))
        let listener = ChannelListener(configuration: BCListenerConfiguration(key: try ChannelKey("118f91f:UdoBre1M"), url: url))

        // README: begin batches
        var iterator = listener.makeAsyncIterator()
        var events: [BCListenerEvent] = []
        var batches: [[BCListenerEvent]] = []
        while await iterator.nextBatch(into: &events) {
            batches.append(events)                      // one call per batch (store it, publish it), not per event
        }                                               // false after the live's end, as for await ends
        // README: end batches

        let all = batches.flatMap { $0 }
        let gifts = all.filter { if case .message(.gift, _, _, _) = $0 { true } else { false } }
        let expected = playlist.items.filter { (try? BCMessageDecoder().decode($0.text).t) == 35 }.count
        #expect(expected > 0)
        #expect(gifts.count == expected, "every gift fixture arrived, typed")
        #expect(all.last.map { if case .ended = $0 { true } else { false } } == true, "the end comes last")
        #expect(!batches.contains { $0.isEmpty })
        await server.stop()
    }
}
