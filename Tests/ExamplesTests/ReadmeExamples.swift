import BCFixtures
import BCListener
import BCMessages
import BCReplay
import Foundation
import Testing

/// The README's Swift examples, as printed there (PrintedExamplesTests holds them to it), and runs of them. The
/// manifest lines of "Use it in a package" are built by scripts/consumer-package.sh instead.
@Suite("README examples", .timeLimit(.minutes(1)))
struct ReadmeExamples: PrintingExamples {
    let printed = PrintedLines()

    @Test("the tour's decoding: a gift whose count is a string on the wire prints with its count as an Int")
    func decoding() throws {
        // >>> printed in README.md
        let json = #"{"t":35,"u":"100000001","ac":"Taro","gift_id":"2","gift_title":"Heart","coins":"1","count":"8"}"#
        let decoder = BCMessageDecoder()               // lenient: unknown kinds kept, unknown keys ignored
        switch try decoder.decode(json) {              // the JSON of one MSG line, as a String or Data
        case .gift(let gift):
            print("\(gift.user.name) sent \(gift.giftTitle) ×\(gift.count)")   // count was "8" on the wire: Int here
        case .comment(let comment):
            print("\(comment.user.name): \(comment.text)")
        case .liveEnded:
            print("the live ended")
        case .unknown(let unknown):
            print("new kind t=\(unknown.t): \(unknown.json)")                 // normal traffic, never a crash
        default:
            break
        }
        // <<< printed
        #expect(printed.lines == ["Taro sent Heart ×8"])
    }

    // >>> printed in README.md
    /// The gifts of a live until it ends, e.g. `try await gifts(key: "118f91f:UdoBre1M",
    /// url: URL(string: "wss://online.example.com/")!)`.
    func gifts(key: String, url: URL) async throws -> [BCResponse.Gift] {
        let listener = ChannelListener(configuration: BCListenerConfiguration(key: try ChannelKey(key), url: url))
        var gifts: [BCResponse.Gift] = []
        for await event in listener {
            switch event {
            case .message(.gift(let gift), _, _, _):
                gifts.append(gift)                   // typed: gift.count is an Int whatever the wire sent
            case .message(let other, _, _, _):
                print(other.summary)
            case .undecodable(let error, let raw, _):
                print("not decoded: \(error.map { "\($0)" } ?? "") \(raw)")   // the session goes on
            case .failed(let failure):
                print(failure)                      // 401/403/404, or maxAttempts failed attempts (when set)
            default:
                break                               // connected, reconnecting…: the sequence retries itself
            }
        }                                           // ends after the live's end (t=8 or t=123)
        return gifts
    }
    // <<< printed

    @Test("gifts(key:url:) returns every gift a ReplayServer plays, typed, and returns when the live ends")
    func giftsOfAServedLive() async throws {
        let received = try await serving(["gift", "8-live-ended-bare"]) { url in
            try await gifts(key: "118f91f:UdoBre1M", url: url)
        }
        #expect(received.count == (try fixtureCount(["gift"])))
        #expect(received.contains { $0.count == 8 && $0.coins == 300 }, "35-gift-count-8-coins-300 came typed")
        #expect(printed.lines == ["the live ended"], "the one message that is no gift, printed as its summary")
    }

    // A test as printed: it serves the fixtures itself.
    // >>> printed in README.md
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

    // A parameterized test as printed: one case per fixture.
    // >>> printed in README.md
    @Test(arguments: BCFixtures.all)                 // one case per fixture, named after its file
    func decodes(_ fixture: BCFixture) throws {
        _ = try BCMessageDecoder().decode(Data(fixture.bytes))
    }
    // <<< printed
}
