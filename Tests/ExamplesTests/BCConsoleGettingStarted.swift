import BCConsole
import BCListener
import Foundation
import Testing

/// BCConsole's getting-started article, its example as printed there, run against a ReplayServer on loopback.
@Suite("BCConsole getting started", .timeLimit(.minutes(1)))
struct BCConsoleGettingStarted: PrintingExamples {
    let printed = PrintedLines()

    // >>> printed in Sources/BCConsole/BCConsole.docc/GettingStarted.md
    /// Prints a live's messages as `bcstream listen --format ndjson` does, for at most 100 messages or a minute, then
    /// the counts; e.g. `try await printLive(key: "118f91f:UdoBre1M", url: URL(string: "wss://online.example.com/")!)`.
    func printLive(key: String, url: URL) async throws -> ListenSession.Outcome {
        let listener = ChannelListener(configuration: BCListenerConfiguration(key: try ChannelKey(key), url: url))
        let session = ListenSession(listeners: [listener], format: .ndjson, count: 100, duration: .seconds(60))
        let outcome = await session.run()
        print(outcome.tally.summary)     // 100 messages: 61 comment, 30 gift, …; 0 errors
        return outcome
    }
    // <<< printed

    @Test("printLive(key:url:) prints every message the server plays, then the counts, and does not fail")
    func printingAServedLive() async throws {
        let outcome = try await serving(["gift", "8-live-ended-bare"]) { url in
            try await printLive(key: "118f91f:UdoBre1M", url: url)
        }
        let gifts = try fixtureCount(["gift"])
        #expect(!outcome.failed)
        #expect(printed.lines == ["\(gifts + 1) messages: \(gifts) gift, 1 liveEnded; 0 errors"])
    }
}
