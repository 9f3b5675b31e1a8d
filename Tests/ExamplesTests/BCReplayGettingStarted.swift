import BCListener
import BCReplay
import Foundation
import Testing

/// BCReplay's getting-started article, its example as printed there: a test, run as it is.
@Suite("BCReplay getting started", .timeLimit(.minutes(1)))
struct BCReplayGettingStarted {
    // >>> printed in Sources/BCReplay/BCReplay.docc/GettingStarted.md
    @Test func theClientReceivesEveryFixtureThenTheEnd() async throws {
        let playlist = try FixtureFolder.loader().load(arguments: ["gift", "8-live-ended-bare"])  // BCFixtures' files
        let server = try await ReplayServer(schedule: ReplaySchedule(items: playlist.items,
                                                                     options: .init(interval: .zero)))
        let url = URL(string: "ws://\(server.host):\(server.port)/")!
        let configuration = BCListenerConfiguration(key: try ChannelKey("118f91f:UdoBre1M"), url: url)
        var kinds: [String] = []
        for await case .message(let message, _, _, _) in ChannelListener(configuration: configuration) {
            kinds.append(message.kind)              // the client under test, here BCListener's
        }
        await server.stop()
        #expect(kinds.count == playlist.items.count && kinds.last == "liveEnded")
    }
    // <<< printed
}
