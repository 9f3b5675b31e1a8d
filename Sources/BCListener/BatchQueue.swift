import Synchronization

/// A queue from producers on any thread (the WebSocket loop, timers) to one consuming task that takes
/// everything queued at once: under load the consumer wakes once per batch instead of once per element (an
/// `AsyncStream` resumes its consumer for every element it is waiting for, a futex wake and a task switch
/// each). Order is kept. Unbounded by itself: what feeds it is bounded by the listener's `ReceiveWindow`.
final class BatchQueue<Element: Sendable>: Sendable {
    private struct State {
        var items: [Element] = []
        /// The consumer, waiting; only while `items` is empty.
        var waiter: CheckedContinuation<[Element], Never>?
        var finished = false
    }

    private let state = Mutex(State())

    /// Queues `element`; dropped once the queue is finished.
    func push(_ element: Element) {
        let waiter: CheckedContinuation<[Element], Never>? = state.withLock { state in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.items.append(element)
            return nil
        }
        waiter?.resume(returning: [element])
    }

    /// No more elements: a waiting or later `next()` gets what is left, then an empty batch.
    func finish() {
        let waiter = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: [])
    }

    /// Everything queued, in order, waiting while nothing is; an empty batch once the queue is finished and
    /// drained, or the calling task is cancelled. One consumer only.
    func next() async -> [Element] {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[Element], Never>) in
                let ready: [Element]? = state.withLock { state in
                    if !state.items.isEmpty {
                        let batch = state.items
                        state.items.removeAll(keepingCapacity: true)
                        return batch
                    }
                    if state.finished || Task.isCancelled { return [] }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            finish()
        }
    }
}
