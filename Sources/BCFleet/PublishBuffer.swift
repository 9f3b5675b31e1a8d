import Synchronization

/// The messages waiting for JetStream, in order, at most `capacity` of them.
///
/// Full means back-pressure, never loss: `append` suspends until the publisher has taken one, so a channel's
/// reader stops taking events, its listener's receive window fills, reading the socket pauses and TCP holds the
/// server back (the listener reports `.readingPaused`). The one exception keeps shutdown from hanging: an append
/// whose task is cancelled is admitted anyway, so nothing is dropped. After a stop the buffer may then exceed
/// `capacity` by what the listeners still held (each listener holds at most its receive window, 1,024 messages or
/// 4 MiB): still bounded, and published or counted by the drain (`LivePublisher.finish`).
///
/// One consumer (the publisher) reads with `first()` and removes with `removeFirst()` once JetStream has acked,
/// so a message in flight still counts as waiting.
public final class PublishBuffer: Sendable {
    /// How many messages it holds before appends wait.
    public let capacity: Int
    /// `--publish-buffer`'s default: about 10 MiB of typical messages.
    public static let defaultCapacity = 10_000

    private struct Waiter {
        let id: UInt64
        let message: FleetMessage
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var items: [FleetMessage] = []
        var head = 0
        var spaceWaiters: [Waiter] = []
        var itemWaiter: CheckedContinuation<FleetMessage?, Never>?
        var finished = false
        var nextWaiter: UInt64 = 0
        /// Times an append found the buffer full, for the report.
        var fullHits = 0
        /// Messages ever admitted and ever removed (published): the admitted count when an append returns is
        /// that message's position, which `waitUntilRemoved(through:)` waits for.
        var admitted = 0
        var removed = 0
        var removalWaiters: [(through: Int, continuation: CheckedContinuation<Void, Never>)] = []

        var count: Int { items.count - head }

        mutating func push(_ message: FleetMessage) -> CheckedContinuation<FleetMessage?, Never>? {
            items.append(message)
            admitted += 1
            defer { itemWaiter = nil }
            return itemWaiter
        }
    }

    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Messages waiting, the one being published included.
    var count: Int { state.withLock { $0.count } }

    var isFull: Bool { state.withLock { $0.count >= capacity } }

    /// How many appends had to wait for room.
    var fullHits: Int { state.withLock { $0.fullHits } }

    /// Adds `message` at the end; waits while the buffer is full (see the type's note on cancellation).
    func append(_ message: FleetMessage) async {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let (admitted, consumer) = state.withLock { state -> (Bool, CheckedContinuation<FleetMessage?, Never>?) in
                    if state.count < capacity || state.finished || Task.isCancelled {
                        return (true, state.push(message))
                    }
                    state.fullHits += 1
                    state.spaceWaiters.append(Waiter(id: id, message: message, continuation: continuation))
                    return (false, nil)
                }
                consumer?.resume(returning: message)
                if admitted { continuation.resume() }
            }
        } onCancel: {
            let (waiter, consumer) = state.withLock { state -> (Waiter?, CheckedContinuation<FleetMessage?, Never>?) in
                guard let index = state.spaceWaiters.firstIndex(where: { $0.id == id }) else { return (nil, nil) }
                let waiter = state.spaceWaiters.remove(at: index)
                return (waiter, state.push(waiter.message))
            }
            consumer?.resume(returning: waiter?.message)
            waiter?.continuation.resume()
        }
    }

    /// The oldest message, waiting for one; nil once `finish()` was called and nothing is left, or when the
    /// calling task is cancelled.
    func first() async -> FleetMessage? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<FleetMessage?, Never>) in
                let ready = state.withLock { state -> FleetMessage?? in
                    if state.count > 0 { return .some(state.items[state.head]) }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.itemWaiter = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.itemWaiter = nil }
                return state.itemWaiter
            }
            waiter?.resume(returning: nil)
        }
    }

    /// How many messages were ever admitted: after `append` returns, that message is among them.
    var admittedCount: Int { state.withLock { $0.admitted } }

    /// Returns once the first `count` messages ever admitted have been removed (published), or at cancellation.
    func waitUntilRemoved(through count: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = state.withLock { state -> Bool in
                    if state.removed >= count || Task.isCancelled { return true }
                    state.removalWaiters.append((count, continuation))
                    return false
                }
                if done { continuation.resume() }
            }
        } onCancel: {
            // Wakes every waiter of this buffer; the others see their count not reached and are woken early, which
            // only happens at shutdown.
            let waiters = state.withLock { state in
                defer { state.removalWaiters = [] }
                return state.removalWaiters
            }
            for waiter in waiters { waiter.continuation.resume() }
        }
    }

    /// Removes the oldest message (JetStream has it) and admits the first waiting append, if any.
    func removeFirst() {
        let (admitted, reached) = state.withLock { state -> (Waiter?, [CheckedContinuation<Void, Never>]) in
            guard state.count > 0 else { return (nil, []) }
            state.head += 1
            state.removed += 1
            var reached: [CheckedContinuation<Void, Never>] = []
            if !state.removalWaiters.isEmpty {
                let removed = state.removed
                reached = state.removalWaiters.filter { $0.through <= removed }.map(\.continuation)
                state.removalWaiters.removeAll { $0.through <= removed }
            }
            if state.head > 1024, state.head * 2 > state.items.count {
                state.items.removeFirst(state.head)
                state.head = 0
            }
            guard !state.spaceWaiters.isEmpty, state.count < capacity else { return (nil, reached) }
            let waiter = state.spaceWaiters.removeFirst()
            _ = state.push(waiter.message)  // the consumer is not waiting: it is the caller
            return (waiter, reached)
        }
        admitted?.continuation.resume()
        for waiter in reached { waiter.resume() }
    }

    /// No more appends are coming: `first()` returns nil once the buffer is empty.
    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<FleetMessage?, Never>? in
            state.finished = true
            guard state.count == 0 else { return nil }
            defer { state.itemWaiter = nil }
            return state.itemWaiter
        }
        waiter?.resume(returning: nil)
    }
}
