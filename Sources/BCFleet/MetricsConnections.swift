/// The metrics server's connections as a pure state machine (events in, connections to close out, time passed
/// in): each connection has `requestDeadline` for its whole request to arrive and `answerDeadline` after that for
/// the answer to be taken; at most `capacity` are open, and a new one past that closes the oldest connection still
/// waiting for its request. A scrape sends its request at once, so it is never the oldest waiter for long: a flood
/// of idle or dripping connections (slowloris) can neither hold the port nor keep a scrape out.
///
/// Work per event is O(1) amortized: connections wait in two queues in the order their deadlines fall (every
/// connection of a queue has the same delay), and entries of connections gone are skipped when they reach the
/// front. IDs must not be reused (a queue may still hold a closed connection's entry).
struct MetricsConnections<ID: Hashable, Instant: Comparable> {
    enum Phase { case awaitingRequest, answering }

    private struct Entry {
        let id: ID
        let deadline: Instant
    }

    let capacity: Int
    private var phases: [ID: Phase] = [:]
    private var awaiting = FIFO<Entry>()
    private var answering = FIFO<Entry>()

    init(capacity: Int) {
        precondition(capacity >= 1)
        self.capacity = capacity
    }

    var count: Int { phases.count }

    func phase(of id: ID) -> Phase? { phases[id] }

    /// A connection was accepted; it must send its whole request by `deadline`. Returns the connection to close
    /// to make room (the oldest one still waiting for its request), if the table was full.
    mutating func opened(_ id: ID, deadline: Instant) -> ID? {
        var evicted: ID?
        if phases.count >= capacity { evicted = evictOldestAwaiting() }
        phases[id] = .awaitingRequest
        awaiting.push(Entry(id: id, deadline: deadline))
        return evicted
    }

    /// The connection's request arrived whole; its answer must be taken by `deadline`.
    mutating func requestArrived(_ id: ID, answerBy deadline: Instant) {
        guard phases[id] == .awaitingRequest else { return }
        phases[id] = .answering
        answering.push(Entry(id: id, deadline: deadline))
    }

    mutating func closed(_ id: ID) {
        phases[id] = nil
    }

    /// The connections whose deadline has passed at `now`, forgotten here; the caller closes them.
    mutating func expired(at now: Instant) -> [ID] {
        var due: [ID] = []
        Self.drain(&awaiting, phase: .awaitingRequest, now: now, phases: &phases, into: &due)
        Self.drain(&answering, phase: .answering, now: now, phases: &phases, into: &due)
        return due
    }

    /// Forgets the oldest connection still waiting for its request and returns it, for the caller to close (a
    /// descriptor freed when accept ran out of them).
    mutating func evictOldestAwaiting() -> ID? {
        Self.skipGone(&awaiting, phase: .awaitingRequest, phases: phases)
        guard let oldest = awaiting.pop()?.id else { return nil }
        phases[oldest] = nil
        return oldest
    }

    private static func skipGone(_ queue: inout FIFO<Entry>, phase: Phase, phases: [ID: Phase]) {
        while let first = queue.first, phases[first.id] != phase { _ = queue.pop() }
    }

    private static func drain(_ queue: inout FIFO<Entry>, phase: Phase, now: Instant, phases: inout [ID: Phase],
                              into due: inout [ID]) {
        while let first = queue.first {
            if phases[first.id] != phase {
                _ = queue.pop()
            } else if first.deadline <= now {
                _ = queue.pop()
                phases[first.id] = nil
                due.append(first.id)
            } else {
                return
            }
        }
    }
}

/// A first-in first-out queue over an array: pop moves a head index, and the consumed front is dropped once it is
/// half the storage, so each element is moved O(1) times.
struct FIFO<Element> {
    private var storage: [Element] = []
    private var head = 0

    var first: Element? { head < storage.count ? storage[head] : nil }

    mutating func push(_ element: Element) { storage.append(element) }

    mutating func pop() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head >= 64, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }
}
