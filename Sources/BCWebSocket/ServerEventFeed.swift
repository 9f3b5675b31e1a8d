import Synchronization

/// The road of a `WebSocketServer`'s events from the service thread to their consumer, with one thing a plain
/// stream cannot tell: how far the consumer has got. `WebSocketServer.events` asks the feed for each next event
/// (`EventPump`), so when it asks for event n+1, it is done with event n, and the replies it sent while handling
/// it are already queued for the service thread.
///
/// That is what a server's close after a client's fault waits for (`fence(session:)`): the replies to the
/// messages delivered before the fault (Autobahn 3.x: a message, then a bad frame; the echo must go out before the
/// close). A fixed grace lost them whenever the consumer's task ran late, under load.
final class ServerEventFeed: Sendable {
    private struct State {
        /// Events handed to the stream so far.
        var yielded: UInt64 = 0
        /// Times the consumer asked for an event.
        var asks: UInt64 = 0
        /// Events the consumer is done with: each ask says it is done with the events before it.
        var handled: UInt64 = 0
        /// Sessions whose close waits for the consumer to be done with the first `upTo` events.
        var fences: [(session: UInt64, upTo: UInt64)] = []
    }

    private let continuation: AsyncStream<WebSocketServerEvent>.Continuation
    private let state = Mutex(State())

    init(_ continuation: AsyncStream<WebSocketServerEvent>.Continuation) {
        self.continuation = continuation
    }

    func yield(_ event: WebSocketServerEvent) {
        state.withLock { $0.yielded += 1 }
        continuation.yield(event)
    }

    func finish() {
        continuation.finish()
    }

    /// Session `id` waits for the consumer to handle every event yielded so far. True when it already has (then
    /// nothing will be told); else `consumerAsksForNext` names the session once it has.
    func fence(session id: UInt64) -> Bool {
        state.withLock { state in
            guard state.handled < state.yielded else { return true }
            state.fences.append((id, state.yielded))
            return false
        }
    }

    /// The consumer asks for its next event: it is done with the one before. Returns the sessions whose fence that
    /// passed.
    func consumerAsksForNext() -> [UInt64] {
        state.withLock { state in
            state.handled = state.asks
            state.asks += 1
            guard !state.fences.isEmpty else { return [] }
            let handled = state.handled
            let passed = state.fences.filter { $0.upTo <= handled }.map(\.session)
            if !passed.isEmpty { state.fences.removeAll { $0.upTo <= handled } }
            return passed
        }
    }
}

/// Hands `WebSocketServer.events` its events one at a time from the feed's stream, telling the feed (and through
/// it the service thread) each time the consumer asks for the next. An actor: the stream's iterator is not
/// Sendable, and one consumer asks at a time.
actor EventPump {
    private var iterator: AsyncStream<WebSocketServerEvent>.Iterator
    private let feed: ServerEventFeed
    private let core: ServiceCore

    init(_ stream: AsyncStream<WebSocketServerEvent>, feed: ServerEventFeed, core: ServiceCore) {
        iterator = stream.makeAsyncIterator()
        self.feed = feed
        self.core = core
    }

    func next() async -> WebSocketServerEvent? {
        for session in feed.consumerAsksForNext() { core.submit(.faultRepliesHandled(id: session)) }
        // A copy: an actor's stored property cannot go inout into an async call. The iterator is a reference to
        // the stream's storage, and one consumer asks at a time, so the copy reads the same stream; it stays on
        // this actor (`isolation`), so nothing is sent elsewhere.
        var copy = iterator
        let event = await copy.next(isolation: self)
        iterator = copy
        return event
    }
}
