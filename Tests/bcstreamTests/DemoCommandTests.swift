import BCMessages
import Foundation
import Testing

@Suite struct DemoCommandTests {
    /// The README's first command: a scripted live over loopback, decoded, ending with t=8 and exit 0.
    @Test(.timeLimit(.minutes(1)))
    func demoPlaysAScriptedLiveToItsEnd() throws {
        let result = try BCStreamProcess.run(["demo", "--format", "ndjson"])
        #expect(result.status == 0, "\(result.stderr)")
        let messages = try result.lines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let kinds = messages.compactMap { $0["kind"] as? String }
        #expect(kinds.last == "liveEnded")
        for kind in ["viewerCountChanged", "join", "comment", "gift", "cheerLevelUp"] {
            #expect(kinds.contains(kind), "the demo shows a \(kind)")
        }
        #expect(messages.allSatisfy { $0["error"] == nil }, "every demo message decodes")
        #expect(result.stderr.contains("subscribed to channel demo:live"))
    }
}
