import BCListener
import BCMessages
import BCReplay
import BCWebSocket
import Foundation
import Testing
import TestSupport

/// `ReplayFaults.broadcast`: a channel plays on while nobody listens, as a live service does, so a client that
/// drops and comes back has missed what was sent meanwhile (the fleet drill relies on it to lose what a real live
/// would lose while no worker holds it).
@Suite(.timeLimit(.minutes(1)))
struct ReplayBroadcastTests {
    /// 40 comments 50 ms apart, then, 3 s later, the stream's end: the recording and the frames' bodies.
    private static func live() throws -> (items: [ReplayItem], bodies: [String]) {
        var lines: [String] = []
        var bodies: [String] = []
        for index in 0..<40 {
            let milliseconds = index * 50
            let time = "2026-11-28T00:00:0\(milliseconds / 1000).\(String(1000 + milliseconds % 1000).dropFirst())Z"
            bodies.append(#"{"t":1,"u":"1","ac":"a","cm":"c\#(index)","lci":"\#(index)"}"#)
            lines.append(try recordedLine(time, "MSG\t118f91f:UdoBre1M\t" + bodies[index]))
        }
        bodies.append(#"{"t":123}"#)
        lines.append(try recordedLine("2026-11-28T00:00:05.000Z", "MSG\t118f91f:UdoBre1M\t" + bodies[40]))
        let playlist = RecordingParser.parse(lines.joined(separator: "\n"), file: "broadcast.ndjson")
        #expect(playlist.problems.isEmpty)
        return (playlist.items, bodies)
    }

    /// What a listener receives from a server that drops it after every 3 messages, while it waits 300 ms to
    /// come back each time: the positions in the schedule of what it received, and how many were sent.
    private static func received(broadcast: Bool) async throws -> (positions: [Int], sent: Int) {
        let (items, bodies) = try live()
        let sent = try bodies.map { try BCMessageDecoder().decode($0) }
        let server = try await ReplayServer(
            schedule: ReplaySchedule(items: items, options: .init(interval: .zero)),
            faults: ReplayFaults(dropAfter: 3, broadcast: broadcast))
        let url = try #require(URL(string: "ws://127.0.0.1:\(server.port)/"))
        var configuration = BCListenerConfiguration(key: try ChannelKey("replay:broadcast"), url: url)
        configuration.backoff = .init(initialDelay: .milliseconds(300), multiplier: 1,
                                      maximumDelay: .milliseconds(300), jitter: 0)
        configuration.stopOnLiveEnd = true
        let events = Inbox(ChannelListener(configuration: configuration, webSocket: WebSocketClientConfiguration()))
        let all = try await events.all(within: .seconds(30), "the live to end")
        await server.stop()
        let responses = all.compactMap { if case .message(let response, _, _, _) = $0 { response } else { nil } }
        return (try responses.map { response in try #require(sent.firstIndex(of: response)) }, sent.count)
    }

    @Test func aClientAwayMissesWhatWasSentMeanwhileAndNothingTwice() async throws {
        let (positions, sent) = try await Self.received(broadcast: true)
        #expect(positions.prefix(3) == [0, 1, 2], "the three before the first drop")
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 }, "in order, none twice: \(positions)")
        #expect(sent - positions.count >= 10, "300 ms away at 50 ms a message misses some each time: \(positions)")
        #expect(positions.last == sent - 1, "the end of the stream, sent after the client came back")
    }

    @Test func withoutItTheChannelWaitsForTheClient() async throws {
        let (positions, sent) = try await Self.received(broadcast: false)
        #expect(positions == Array(0..<sent))
    }
}
