import BCListener
import BCMessages
import Foundation
import Testing

/// BCListener's getting-started article, its examples as printed there, run against a ReplayServer on loopback.
@Suite("BCListener getting started", .timeLimit(.minutes(1)))
struct BCListenerGettingStarted: PrintingExamples {
    let printed = PrintedLines()

    // >>> printed in Sources/BCListener/BCListener.docc/GettingStarted.md
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

    // >>> printed in Sources/BCListener/BCListener.docc/GettingStarted.md
    /// The events of a live until it ends, in batches: one call per batch (store it, publish it), not per event.
    func batches(key: String, url: URL) async throws -> [[BCListenerEvent]] {
        let listener = ChannelListener(configuration: BCListenerConfiguration(key: try ChannelKey(key), url: url))
        var iterator = listener.makeAsyncIterator()
        var events: [BCListenerEvent] = []
        var batches: [[BCListenerEvent]] = []
        while await iterator.nextBatch(into: &events) {
            batches.append(events)                  // every event that was ready
        }                                           // false after the live's end, as for await ends
        return batches
    }
    // <<< printed

    @Test("gifts(key:url:) returns every gift the server plays and prints the end of the live")
    func giftsOfAServedLive() async throws {
        let received = try await serving(["gift", "8-live-ended-bare"]) { url in
            try await gifts(key: "118f91f:UdoBre1M", url: url)
        }
        #expect(received.count == (try fixtureCount(["gift"])))
        #expect(printed.lines == ["the live ended"])
    }

    @Test("batches(key:url:) returns every event in non-empty batches, the live's end last")
    func batchesOfAServedLive() async throws {
        let received = try await serving(["gift", "8-live-ended-bare"]) { url in
            try await batches(key: "118f91f:UdoBre1M", url: url)
        }
        let events = received.flatMap { $0 }
        let messages = events.filter { if case .message = $0 { true } else { false } }
        #expect(messages.count == (try fixtureCount(["gift", "8-live-ended-bare"])))
        #expect(events.last.map { if case .ended = $0 { true } else { false } } == true)
        #expect(!received.contains { $0.isEmpty })
    }
}
