import Foundation
import Testing

@Suite struct BenchCommandTests {
    /// `bench --end-to-end` replays to a listener over loopback until every message sent has been decoded; a
    /// message lost on the way (say, pushed before the server had the subscription) makes its watchdog exit 1.
    @Test(.timeLimit(.minutes(1)))
    func endToEndDeliversEveryMessageAndReportsFigures() throws {
        let result = try BCStreamProcess.run(["bench", "--end-to-end", "--messages", "3000"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("listener → decoded value, 3000 messages"), "\(result.stdout)")
        for figure in ["messages/s", "latency, frame received → value delivered: p50", "resident MiB", "memory growth"] {
            #expect(result.stdout.contains(figure), "the report gives \(figure)")
        }
        #expect(result.stderr.contains("3000 messages…"))
    }
}
