import BCListener
import BCMessages
import BCReplay
import Foundation
import Testing

/// The README's Swift examples, as they are printed there (only the fixture folder's path differs): if one of
/// them stops compiling or working, this fails.
@Suite("README examples", .timeLimit(.minutes(1)))
struct ReadmeExamplesTests {
    static let payloads = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Payloads").path

    /// "Serve fixtures to your own client from a test", with `ChannelListener` as the client under test.
    @Test("an app's test serves fixtures to its own client, which receives every gift, then the end")
    func serveFixturesToYourClient() async throws {
        // README: begin serving
        let playlist = try ReplayLoader(defaultFolder: Self.payloads).load(arguments: ["gift", "8-live-ended-bare"])
        let server = try await ReplayServer(schedule: ReplaySchedule(items: playlist.items,
                                                                     options: .init(interval: .zero)))
        let url = try #require(URL(string: "ws://\(server.host):\(server.port)/"))
        // Point the client under test at `url`: any key it subscribes to plays the playlist, gifts first, then
        // the end of the live.
        // README: end serving

        // README: begin listening
        let listener = ChannelListener(configuration: BCListenerConfiguration(key: "118f91f:UdoBre1M", url: url))
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
}
