import BCListener
import BCMessages
@testable import BCReplay
import BCWebSocket
import Foundation
import Testing
import TestSupport

/// The replay server's memory stays bounded whatever its clients do: a subscriber that does not read, a
/// connection that subscribes to key after key, channels nobody comes back to.
@Suite(.timeLimit(.minutes(1)))
struct ReplayLimitsTests {
    private static func items(_ count: Int) -> [ReplayItem] {
        (0..<count).map { number in
            .fixture(name: "comment-\(number)", json: #"{"t":1,"u":"1","ac":"a","lci":"\#(number)","cm":"\#(String(repeating: "x", count: 2_000))"}"#,
                     file: "generated")
        }
    }

    /// A raw client on `server` with events in an inbox; with a window that is never released, it stops
    /// reading after `maxMessages`.
    private static func client(of server: ReplayServer, loop: WebSocketLoop, window: ReceiveWindow? = nil) throws
        -> (WebSocketLink, Inbox<WebSocketEvent>) {
        let url = try #require(WebSocketURL(string: "ws://127.0.0.1:\(server.port)/"))
        let events = Inbox<WebSocketEvent>()
        var configuration = WebSocketClientConfiguration()
        configuration.permessageDeflate = false
        let link = loop.connect(to: url, configuration: configuration, window: window) { events.push($0) }
        return (link, events)
    }

    @Test("a log reader that falls behind loses entries, counted, never memory, and is told how many")
    func activityIsBounded() async throws {
        let count = 20
        // A millisecond apart, so each item is sent and logged on its own (items due at once go as one run, one
        // entry: `itemsDueAtOnceGoAsRuns`).
        let schedule = ReplaySchedule(items: Self.items(count),
                                      options: .init(interval: .milliseconds(1), speed: .max, loop: false))
        let server = try await ReplayServer(schedule: schedule, limits: ReplayLimits(maxPendingActivity: 4))
        let loop = WebSocketLoop(name: "ReplayLimitsTests.activity")
        let (link, events) = try Self.client(of: server, loop: loop)
        link.send("SUB\tk")
        var received = 0
        while received < count {
            guard let event = try await events.next(within: .seconds(10), "the played messages") else { break }
            if case .text(let text) = event, text.hasPrefix("MSG") { received += 1 }
        }
        #expect(received == count)

        // Nobody read the log meanwhile: it holds the first 4 entries only.
        var log = server.activity.makeAsyncIterator()
        var held: [ReplayActivity] = []
        for _ in 0..<4 { if let entry = await log.next() { held.append(entry) } }
        guard case .subscribed(_, key: "k") = held.first else {
            Issue.record("the log does not start with the subscription: \(held)")
            return
        }
        // The next entry (the client leaving) comes after one that counts what was left out.
        link.close()
        guard case .skipped(let skipped)? = await log.next() else {
            Issue.record("no .skipped entry after the log's reader fell behind")
            return
        }
        #expect(held.count + skipped >= 1 + count, "1 subscription + \(count) sends were logged")
        guard case .left? = await log.next() else {
            Issue.record("the client's departure did not follow the .skipped entry")
            return
        }
        await loop.shutdown()
        await server.stop()
    }

    @Test("items due at once go out as runs of about 64 KiB, one log entry each, every item received in order")
    func itemsDueAtOnceGoAsRuns() async throws {
        let count = 100
        let items = Self.items(count)  // some 2 KB each: a run holds about 32
        let schedule = ReplaySchedule(items: items, options: .init(interval: .zero, speed: .max, loop: false))
        let server = try await ReplayServer(schedule: schedule)
        let activity = Inbox(server.activity)
        let loop = WebSocketLoop(name: "ReplayLimitsTests.runs")
        let (link, events) = try Self.client(of: server, loop: loop)
        link.send("SUB\tk")
        var received: [String] = []
        while received.count < count {
            guard let event = try await events.next(within: .seconds(10), "the played messages") else { break }
            if case .text(let text) = event, text.hasPrefix("MSG") { received.append(text) }
        }
        #expect(received == items.map { "MSG\tk\t" + $0.text }, "every item, once, in order")

        // Each log entry is a run (a lone item left at the end of the schedule is a run of one, logged as `.sent`).
        var runs: [(first: String?, last: String?, count: Int)] = []
        while let entry = try await activity.next(within: .seconds(10), "the log up to the end of the playback") {
            if case .sentRun(let first, let last, let count, "k", 1) = entry {
                runs.append((first.fixtureName, last.fixtureName, count))
            } else if case .sent(let item, "k", 1) = entry {
                runs.append((item.fixtureName, item.fixtureName, 1))
            } else if case .finished = entry {
                break
            }
        }
        #expect(runs.map(\.count).reduce(0, +) == count)
        let largest = ReplayServer.runLimit / 2_000 + 1
        #expect(runs.count <= count / (largest - 1) + 2 && runs.allSatisfy { $0.count <= largest },
                "\(runs.map(\.count))")
        #expect(runs.first?.first == "comment-0" && runs.last?.last == "comment-\(count - 1)")
        link.close()
        await loop.shutdown()
        await server.stop()
    }

    /// A recording of empty frames (nothing to send), looped at full speed: every step is due at once and none
    /// has bytes, so only the cap on items ends a run. Without it the playback never gave the server back: no ACK.
    @Test("a looped recording of empty frames at full speed never holds the server: runs end at runLimitItems")
    func emptyFramesLoopedAtFullSpeedLeaveTheServerAnswering() async throws {
        let empty = ReplayItem(content: .recordedFrame(text: "", recordedKey: "k", offset: .zero),
                               location: ReplaySourceLocation(file: "empty.ndjson", line: 1))
        let schedule = ReplaySchedule(items: [empty, empty], options: .init(interval: .zero, speed: .max, loop: true))
        let server = try await ReplayServer(schedule: schedule, logsSends: false)
        let loop = WebSocketLoop(name: "ReplayLimitsTests.emptyLoop")
        let (link, events) = try Self.client(of: server, loop: loop)
        link.send("SUB\tk")
        // Two rounds: by the second PING the playback has long started.
        for round in 1...2 {
            link.send("PING")
            var acked = false
            while !acked {
                guard let event = try await events.next(within: .seconds(10), "ACK \(round)") else { break }
                if case .text(let text) = event, text.hasPrefix("ACK") { acked = true }
            }
            #expect(acked, "round \(round)")
        }
        link.close()
        await loop.shutdown()
        await server.stop()
    }

    @Test("a run is logged as a person reads it: how many, from where to where, on which key")
    func aRunsLogLine() {
        func frame(_ line: Int) -> ReplayItem {
            ReplayItem(content: .recordedFrame(text: "MSG\tk\t{}", recordedKey: "k", offset: .zero),
                       location: ReplaySourceLocation(file: "session.ndjson", line: line))
        }
        let recorded = ReplayActivity.sentRun(first: frame(12), last: frame(40), count: 29, key: "k", subscribers: 2)
        #expect(recorded.description == "sent 29 frames, session.ndjson:12–40, on k to 2 subscribers")
        let fixtures = Self.items(3)
        let mixed = ReplayActivity.sentRun(first: fixtures[0], last: fixtures[2], count: 3, key: "k", subscribers: 1)
        #expect(mixed.description == "sent 3 frames, comment-0 to comment-2, on k to 1 subscriber")
    }

    @Test("a subscriber that stops reading is closed after the stall timeout; the channel plays on for the others")
    func aSubscriberThatDoesNotReadIsClosed() async throws {
        let schedule = ReplaySchedule(items: Self.items(200), options: .init(interval: .zero, speed: .max, loop: true))
        // 3 s: the reader below is this process's own thread, and on two loaded cores a thread can go unscheduled
        // for over a second; at 1 s the server may rightly close the reader as stalled first, and the test then
        // waited for messages the closed reader could not get (one failure under the suite's load).
        let limits = ReplayLimits(sendQueueHighWater: 32 * 1024, stalledSubscriberTimeout: .seconds(3),
                                  maxQueuedBytes: 1 << 20)
        let server = try await ReplayServer(schedule: schedule, limits: limits)
        let activity = Inbox(server.activity)
        let loop = WebSocketLoop(name: "ReplayLimitsTests")

        // Stops reading after 4 messages, and never takes any of them.
        let (stuck, stuckEvents) = try Self.client(of: server, loop: loop, window: ReceiveWindow(maxMessages: 4))
        stuck.send("SUB\tshared")
        #expect(try await stuckEvents.next(within: .seconds(10)) == .upgrading)
        #expect(try await stuckEvents.next(within: .seconds(10)) == .opened)
        let (reader, readerEvents) = try Self.client(of: server, loop: loop)
        reader.send("SUB\tshared")

        let refusal = try await activity.first(within: .seconds(15), "the stalled subscriber's close") {
            if case .refused(_, let why) = $0 { why.hasPrefix("did not read for 3 s") } else { false }
        }
        guard case .refused(let client, _) = refusal else { return }
        _ = try await activity.first(within: .seconds(15), "the stalled subscriber's departure") { $0 == .left(client, key: nil) }
        #expect(await server.queuedBytes(for: client) == 0)
        // The channel waited for the stuck one without spinning: each wait ended by a cause (the reader draining,
        // the timeout), not by the cancelled timer of the wait before (which once ran away: a wait a turn, and
        // 80 MB a second of dispatch timers).
        let (waits, causes) = await (server.roomWaits, server.roomWakeCauses)
        #expect(waits <= causes + 1, "\(waits) waits for room, \(causes) causes to end one")

        // The reader keeps receiving after the stuck one is gone.
        var afterwards = 0
        while afterwards < 300 {
            guard let event = try await readerEvents.next(within: .seconds(10), "the reader's messages") else { break }
            if case .text = event { afterwards += 1 }
        }
        #expect(afterwards == 300)
        stuck.close()
        reader.close()
        await loop.shutdown()
        await server.stop()
    }

    @Test("one key too many on a connection gets ERR and a close (1008); the server serves the next client")
    func tooManyKeysOnOneConnection() async throws {
        let schedule = ReplaySchedule(items: Self.items(3), options: .init(interval: .zero, speed: .max))
        let server = try await ReplayServer(schedule: schedule, limits: ReplayLimits(maxKeysPerConnection: 16))
        let loop = WebSocketLoop(name: "ReplayLimitsTests")
        let (greedy, events) = try Self.client(of: server, loop: loop)
        greedy.send((0...16).map { "SUB\tkey-\($0)" }.joined(separator: "\n"))
        let err = try await events.first(within: .seconds(10), "the ERR line") {
            if case .text(let text) = $0 { text.hasPrefix("ERR") } else { false }
        }
        #expect(err == .text("ERR\tmore than 16 keys on one connection"))
        let close = try await events.first(within: .seconds(10), "the close") {
            if case .closed = $0 { true } else { false }
        }
        guard case .closed(let reason) = close else { return }
        #expect(reason.code == 1008)
        #expect(await server.channelCount <= 16)

        let (polite, politeEvents) = try Self.client(of: server, loop: loop)
        polite.send("SUB\tkey-0")
        _ = try await politeEvents.first(within: .seconds(10), "a message for the next client") {
            if case .text(let text) = $0 { text.hasPrefix("MSG\tkey-0\t") } else { false }
        }
        polite.close()
        await loop.shutdown()
        await server.stop()
    }

    /// The server reads SUB keys as a listener does: a key with a TAB, an escape or a bidi control is no key.
    @Test("a SUB whose key is not a channel key gets ERR, is not subscribed, and is logged escaped", arguments: [
        "k1\tvictim", "k\u{1B}[2J", "k\u{202E}1", "k 1", String(repeating: "k", count: 300), "",
    ])
    func aHostileKeyGetsErr(key: String) async throws {
        let schedule = ReplaySchedule(items: Self.items(3), options: .init(interval: .zero, speed: .max))
        let server = try await ReplayServer(schedule: schedule)
        let activity = Inbox(server.activity)
        let loop = WebSocketLoop(name: "ReplayLimitsTests")
        let (client, events) = try Self.client(of: server, loop: loop)
        client.send("SUB\t" + key)
        let err = try await events.first(within: .seconds(10), "the ERR line") {
            if case .text(let text) = $0 { text.hasPrefix("ERR") } else { false }
        }
        guard case .text(let errText) = err else { return }
        #expect(errText.hasPrefix("ERR\tSUB: ") && !errText.dropFirst(4).contains("\t"))
        let logged = try await activity.first(within: .seconds(10), "the log entry") {
            if case .badKey = $0 { true } else { false }
        }
        let said = TerminalText.escaped(logged.description)
        #expect(!said.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{202E}" })
        #expect(said.utf8.count < 1_000)
        #expect(await server.subscriptions.isEmpty)
        // The connection stays usable: a good key after it is served.
        client.send("SUB\tgood")
        _ = try await events.first(within: .seconds(10), "a message on the good key") {
            if case .text(let text) = $0 { text.hasPrefix("MSG\tgood\t") } else { false }
        }
        client.close()
        await loop.shutdown()
        await server.stop()
    }

    @Test("a channel nobody comes back to is forgotten after the grace period")
    func anAbandonedChannelIsReleased() async throws {
        let schedule = ReplaySchedule(items: Self.items(1_000), options: .init(interval: .milliseconds(10)))
        let server = try await ReplayServer(schedule: schedule, limits: ReplayLimits(resumeGrace: .milliseconds(300)))
        let activity = Inbox(server.activity)
        let loop = WebSocketLoop(name: "ReplayLimitsTests")
        let (client, events) = try Self.client(of: server, loop: loop)
        client.send("SUB\tshort-lived")
        _ = try await events.first(within: .seconds(10), "a first message") {
            if case .text = $0 { true } else { false }
        }
        #expect(await server.channelCount == 1)
        client.close()
        let released = try await activity.first(within: .seconds(10), "the channel's release") {
            if case .released = $0 { true } else { false }
        }
        #expect(released == .released(key: "short-lived"))
        #expect(await server.channelCount == 0)
        await loop.shutdown()
        await server.stop()
    }
}

/// The listener's flow control end to end: a consumer that falls behind pauses the listener's reading, the
/// server waits for it, and every message still arrives once, in order.
@Suite(.timeLimit(.minutes(1)))
struct ListenerFlowControlTests {
    @Test("a consumer that falls behind pauses reading; the server waits; every message arrives in order")
    func aSlowConsumerIsLagNotLoss() async throws {
        let total = 3_000
        let items = (0..<total).map { number in
            ReplayItem.fixture(name: "c\(number)", json: #"{"t":1,"u":"1","ac":"a","lci":"\#(number)","cm":"\#(String(repeating: "x", count: 500))"}"#,
                               file: "generated")
        }
        let schedule = ReplaySchedule(items: items, options: .init(interval: .zero, speed: .max))
        let server = try await ReplayServer(schedule: schedule,
                                            limits: ReplayLimits(sendQueueHighWater: 16 * 1024,
                                                                 stalledSubscriberTimeout: .seconds(30)))
        let url = try #require(URL(string: "ws://127.0.0.1:\(server.port)/"))
        var configuration = BCListenerConfiguration(key: try ChannelKey("slow"), url: url, stopOnLiveEnd: false)
        configuration.maxHeldMessages = 16
        var iterator = ChannelListener(configuration: configuration).makeAsyncIterator()

        // The session runs on the consumer's side: it takes events up to the subscription, then takes nothing
        // more for a while. Wait (bounded) until the server holds messages back for it.
        var subscribed = false
        while !subscribed, let event = await iterator.next() {
            if case .subscribed = event { subscribed = true }
        }
        #expect(subscribed)
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while await server.queuedBytesOfSubscribers(to: try ChannelKey("slow")) == 0 {
            guard clock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await server.queuedBytesOfSubscribers(to: try ChannelKey("slow")) > 0)

        var numbers: [Int] = []
        var paused = false
        while numbers.count < total, let event = await iterator.next() {
            switch event {
            case .message(.comment(let comment), _, _, _): numbers.append(Int(comment.commentID) ?? -1)
            case .readingPaused(true): paused = true
            default: break
            }
        }
        #expect(paused)
        #expect(numbers == Array(0..<total))
        await server.stop()
    }
}
