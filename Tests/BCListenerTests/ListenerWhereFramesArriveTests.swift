import BCListener
import BCMessages
import Foundation
import Synchronization
import Testing
import TestSupport

/// `ChannelListener.run(handler:)`: the same session as iterating, its events handed to the handler on the thread
/// that read the frame. The scenarios of `ListenerIntegrationTests`, run this way, give the same events in the
/// same order; the handler stops the session; a cancelled caller returns at once; the handler is never run twice
/// at once, and runs on the loop's thread.
@Suite(.timeLimit(.minutes(1))) struct ListenerWhereFramesArriveTests {
    @Test("a session, a drop and a reconnect, a dead link found by the keepalive: the events iterating gives",
          arguments: [
              ("normal", ListenerIntegrationTests.session),
              ("drop", ["connected", "subscribed", "message t=23", "message t=1",
                        "disconnected: closed with code 1006 (connection lost): connection lost",
                        "reconnecting (attempt 2): closed with code 1006 (connection lost): connection lost",
                        "connected", "subscribed", "message t=35", "message t=3", "message t=8", "ended t=8"]),
              ("silent", ["connected", "subscribed", "disconnected: no ACK to PING: the link is dead",
                          "reconnecting (attempt 2): no ACK to PING: the link is dead"]
                  + ListenerIntegrationTests.session),
          ])
    func theSameEventsAsIterating(scenario: String, expected: [String]) async throws {
        try await withBCSVRPeer(scenario) { peer, harness in
            let heard = try await harness.listenWhereFramesArrive(harness.configuration()).all(within: .seconds(10))
            #expect(heard.outline == expected)
            try ListenerIntegrationTests.expectMessages(heard, equalThoseSentBy: peer)
        }
    }

    @Test("the handler's false ends the session: no event after it, and the listener leaves the server")
    func theHandlerStopsTheSession() async throws {
        try await withBCSVRPeer("normal") { peer, harness in
            let heard = try await harness.listenWhereFramesArrive(harness.configuration()) { event in
                if case .message = event { false } else { true }
            }.all(within: .seconds(10))
            #expect(heard.outline == ["connected", "subscribed", "message t=23"])
            _ = try await peer.reported("closed n=1 code=1000")
        }
    }

    @Test("a cancelled caller returns at once and the listener leaves the server")
    func cancellingTheCallerEndsTheSession() async throws {
        try await withBCSVRPeer("idle") { peer, harness in
            let listener = ChannelListener(configuration: harness.configuration(), loop: harness.loop)
            let subscribed = Inbox<Void>()
            let run = Task {
                await listener.run { event in
                    if case .subscribed = event { subscribed.push(()) }
                    return true
                }
            }
            _ = try await subscribed.next(within: .seconds(10), "the subscription")
            run.cancel()
            try await withTimeout(.seconds(2), "run(handler:) to return once cancelled") { await run.value }
            // The close handshake goes on after `run` returned (the peer's answer may take up to 2 s to be waited
            // for): the bound is for a loaded machine, the point is the normal close.
            _ = try await peer.reported("closed n=1 code=1000", within: .seconds(5))
        }
    }

    @Test("the handler runs for one event at a time: a slow one holds the next events back, in order")
    func oneEventAtATime() async throws {
        try await withBCSVRPeer("normal") { _, harness in
            let tracker = HandlerTracker()
            let heard = try await harness.listenWhereFramesArrive(harness.configuration()) { event in
                tracker.enter(event)
                usleep(1000)  // frames arrive meanwhile: they wait for this call to end
                tracker.leave()
                return true
            }.all(within: .seconds(10))
            #expect(heard.outline == ListenerIntegrationTests.session)
            #expect(!tracker.overlapped)
        }
    }

    @Test("a message is handled on the thread that read its frame, the loop's")
    func messagesOnTheLoopsThread() async throws {
        try await withBCSVRPeer("normal") { _, harness in
            let tracker = HandlerTracker()
            let heard = try await harness.listenWhereFramesArrive(harness.configuration()) { event in
                tracker.enter(event)
                tracker.leave()
                return true
            }.all(within: .seconds(10))
            #expect(heard.outline == ListenerIntegrationTests.session)
            // A message comes after the subscription's round trip, long after `run` took the session over.
            #expect(tracker.messagePlaces == ["the loop's thread"])
        }
    }
}

/// What the handler saw: whether two calls overlapped, and where messages were handled.
private final class HandlerTracker: Sendable {
    private let inside = Atomic<Int>(0)
    private let overlap = Atomic<Bool>(false)
    private let threads = Mutex<Set<String>>([])

    func enter(_ event: BCListenerEvent) {
        if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
            overlap.store(true, ordering: .sequentiallyConsistent)
        }
        if case .message = event {
            // The loop's thread runs no task; the caller's side, and any task a frame were handed to, does.
            let place = withUnsafeCurrentTask { $0 == nil } ? "the loop's thread" : "a task"
            threads.withLock { _ = $0.insert(place) }
        }
    }

    func leave() { inside.subtract(1, ordering: .sequentiallyConsistent) }
    var overlapped: Bool { overlap.load(ordering: .sequentiallyConsistent) }
    var messagePlaces: Set<String> { threads.withLock { $0 } }
}
