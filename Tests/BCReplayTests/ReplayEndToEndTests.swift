import BCListener
import BCMessages
import BCReplay
import BCWebSocket
import Foundation
import Testing
import TestSupport

/// The replay server and the listener over loopback: what is played arrives, decoded, in order, once; and each
/// fault produces the listener behaviour BCListener promises.
@Suite(.timeLimit(.minutes(1)))
struct ReplayEndToEndTests {
    /// A listener on a replay server of `items`, with short timings so faults resolve fast.
    private struct Session {
        let server: ReplayServer
        let events: Inbox<BCListenerEvent>

        init(_ items: [ReplayItem], faults: ReplayFaults = ReplayFaults(), speed: ReplaySpeed = .max,
             maxMessageSize: Int = 1 << 20, recorder: FrameRecorder? = nil, stopOnLiveEnd: Bool = false) async throws {
            let schedule = ReplaySchedule(items: items, options: .init(interval: .zero, speed: speed))
            server = try await ReplayServer(schedule: schedule, faults: faults)
            let url = try #require(URL(string: "ws://127.0.0.1:\(server.port)/"))
            var configuration = BCListenerConfiguration(key: try! ChannelKey("replay:test"), url: url)
            configuration.pingInterval = .seconds(1)
            configuration.backoff = .init(initialDelay: .milliseconds(50), multiplier: 2,
                                          maximumDelay: .milliseconds(200), jitter: 0)
            configuration.stopOnLiveEnd = stopOnLiveEnd
            var webSocket = WebSocketClientConfiguration()
            webSocket.maxMessageSize = maxMessageSize
            events = Inbox(ChannelListener(configuration: configuration, webSocket: webSocket, recorder: recorder))
        }

        /// Events until `count` messages arrived (decoded or not), then the listener stops.
        func events(untilMessages count: Int, within timeout: Duration = .seconds(20)) async throws -> [BCListenerEvent] {
            var received: [BCListenerEvent] = []
            var messages = 0
            while messages < count {
                guard let event = try await events.next(within: timeout, "message \(messages + 1) of \(count)") else {
                    break
                }
                received.append(event)
                if case .message = event { messages += 1 }
                if case .undecodable(.some, _, _) = event { messages += 1 }
            }
            events.cancel()
            await server.stop()
            return received
        }
    }

    private static func responses(_ events: [BCListenerEvent]) -> [BCResponse] {
        events.compactMap { if case .message(let response, _, _, _) = $0 { response } else { nil } }
    }

    private static func decoded(_ items: [ReplayItem]) throws -> [BCResponse] {
        try items.map { try BCMessageDecoder().decode($0.text) }
    }

    /// `push` hands a run of text frames to each subscriber at once; a binary frame between them keeps its place.
    /// The log tells each item sent, unless told not to (`logsSends`, for the bench).
    @Test(arguments: [true, false])
    func aPushArrivesInOrderWithItsBinaryFrameInPlace(logsSends: Bool) async throws {
        let server = try await ReplayServer(schedule: nil, logsSends: logsSends)
        let activity = Inbox(server.activity)
        let url = try #require(WebSocketURL(string: "ws://127.0.0.1:\(server.port)/"))
        var configuration = WebSocketClientConfiguration()
        configuration.permessageDeflate = false
        let loop = WebSocketLoop(name: "BCReplayTests.push")
        let received = Inbox<WebSocketEvent>()
        let link = loop.connect(to: url, configuration: configuration) { received.push($0) }
        #expect(try await received.next() == .upgrading)
        #expect(try await received.next() == .opened)
        link.send("SUB\tpush:test")
        await server.waitForSubscriber(to: try ChannelKey("push:test"))
        let fixtures = (0..<300).map { ReplayItem.fixture(name: "f\($0)", json: "{\"t\":1,\"n\":\($0)}", file: "f\($0).json") }
        let binary = ReplayItem(content: .recordedBinary(bytes: [7, 8, 9], offset: .zero),
                                location: ReplaySourceLocation(file: "session.ndjson", line: 1))
        await server.push(Array(fixtures[..<150]) + [binary] + Array(fixtures[150...]))
        var expected = fixtures[..<150].map { WebSocketEvent.text("MSG\tpush:test\t" + $0.text) }
        expected.append(.binary([7, 8, 9]))
        expected += fixtures[150...].map { WebSocketEvent.text("MSG\tpush:test\t" + $0.text) }
        for (index, event) in expected.enumerated() {
            #expect(try await received.next(within: .seconds(10), "frame \(index)") == event)
        }
        link.close(code: 1000, reason: "")
        await loop.shutdown()
        await server.stop()
        let log = try await activity.all(within: .seconds(10), "the end of the log")
        #expect(log.contains { if case .subscribed(_, "push:test") = $0 { true } else { false } })
        let sends = log.filter { if case .sent = $0 { true } else { false } }
        #expect(sends.count == (logsSends ? 301 : 0))
    }

    @Test func everyFixtureArrivesDecodedInOrderOnce() async throws {
        let items = try Checkout.loader.load(arguments: []).items
        let session = try await Session(items)
        let events = try await session.events(untilMessages: items.count)
        #expect(try Self.responses(events) == Self.decoded(items))
        #expect(!events.contains { if case .reconnecting = $0 { true } else { false } })
    }

    /// `bcstream replay` (every fixture) into a listener that stops at the end of the live, as `listen` does: every
    /// fixture that does not end the live arrives, then one end, and the listener stops there.
    @Test func everyFixtureArrivesBeforeTheEndOfTheLive() async throws {
        let items = try Checkout.loader.load(arguments: []).items
        let names = try Checkout.fixtureNames()
        let ending = try names.filter { name in
            let object = try JSONSerialization.jsonObject(with: Checkout.bytes(of: name)) as? [String: Any]
            return (object?["t"] as? Int).flatMap(BCType.init(rawValue:))?.endsLive == true
        }
        #expect(!ending.isEmpty && ending.count < names.count)
        let session = try await Session(items, stopOnLiveEnd: true)
        let events = try await session.events.all(within: .seconds(30), "the live to end")
        await session.server.stop()

        let arrived = events.filter {
            switch $0 {
            case .message, .undecodable(.some, _, _): true
            default: false
            }
        }
        #expect(arrived.count == names.count - ending.count + 1, "every fixture that does not end the live, then one end")
        let expected = try items.prefix(names.count - ending.count + 1).map { try BCMessageDecoder().decode($0.text) }
        #expect(Self.responses(events) == expected)
        #expect(Self.responses(events).last?.type?.endsLive == true)
        guard case .ended(let end) = events.last else {
            Issue.record("the listener did not end with the live: \(String(describing: events.last))")
            return
        }
        #expect(end?.type?.endsLive == true)
    }

    @Test func aRecordingReplaysToTheSameDecodedStream() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/session.ndjson"
        let items = try Checkout.loader.load(arguments: ["23", "3", "1", "35", "116", "8-live-ended-bare"]).items
        let recorder = try FrameRecorder(path: path)
        let first = try await Session(items, recorder: recorder, stopOnLiveEnd: true)
        let live = try Self.responses(await first.events.all(within: .seconds(20), "the live to end"))
        await first.server.stop()

        let recording = try Checkout.loader.load(arguments: [path])
        #expect(recording.problems.isEmpty)
        let second = try await Session(recording.items, stopOnLiveEnd: true)
        let replayed = try Self.responses(await second.events.all(within: .seconds(20), "the replayed live to end"))
        await second.server.stop()

        #expect(live == (try Self.decoded(items)))
        #expect(replayed == live)
    }

    /// A drop, a stall or an oversized message costs a reconnect, never a message.
    @Test(arguments: [
        ("drop", ReplayFaults(dropAfter: 3)),
        ("stall", ReplayFaults(stallAfter: 2)),
        ("oversized", ReplayFaults(oversizedBytes: 100_000)),
    ])
    func aFaultCostsAReconnectAndNoMessage(_ name: String, _ faults: ReplayFaults) async throws {
        let items = try Checkout.loader.load(arguments: ["3"]).items
        let session = try await Session(items, faults: faults, speed: .times(1), maxMessageSize: 64 * 1024)
        let events = try await session.events(untilMessages: items.count, within: .seconds(10))

        #expect(try Self.responses(events) == Self.decoded(items), "\(name): every message once, in order")
        let subscriptions = events.filter { if case .subscribed = $0 { true } else { false } }.count
        #expect(subscriptions >= 2, "\(name): the listener reconnected and subscribed again")
        let reasons = events.compactMap { if case .disconnected(let reason) = $0 { reason } else { nil } }
        switch name {
        case "oversized":
            #expect(reasons.first == .closed(code: 1009, reason: "a message was larger than 65536 bytes"))
        case "stall":
            #expect(reasons.first.map { $0 == .pingTimeout || "\($0)".contains("no pong") } == true,
                    "a stalled server is a dead link: \(reasons)")
        default:
            #expect(reasons.first == .closed(code: 1001, reason: "replay: drop after 3"))
        }
    }

    @Test func theDropCloseCodeReachesTheListener() async throws {
        let items = try Checkout.loader.load(arguments: ["1"]).items
        let session = try await Session(items, faults: ReplayFaults(dropAfter: 2, dropCode: 1011))
        let events = try await session.events(untilMessages: items.count)
        #expect(events.contains(.disconnected(.closed(code: 1011, reason: "replay: drop after 2"))))
    }

    @Test func fragmentedMessagesArriveWhole() async throws {
        let items = try Checkout.loader.load(arguments: ["35"]).items
        let session = try await Session(items, faults: ReplayFaults(fragments: 3))
        let events = try await session.events(untilMessages: items.count)
        #expect(try Self.responses(events) == Self.decoded(items))
    }
}
