import Synchronization

/// A queue from producers on any thread (the WebSocket loop, timers) to one consuming task that takes
/// everything queued at once: under load the consumer wakes once per batch instead of once per element (an
/// `AsyncStream` resumes its consumer for every element it is waiting for, a futex wake and a task switch
/// each). Order is kept. Unbounded by itself: what feeds it is bounded by the listener's `ReceiveWindow`.
///
/// The consumer hands its last batch back with each `next(into:)`, and the two arrays trade places: in a steady
/// stream neither side allocates (a batch under load holds hundreds of frames).
final class BatchQueue<Element: Sendable>: Sendable {
    private struct State {
        var items: [Element] = []
        /// The consumer, waiting; only while `items` is empty.
        var waiter: UnsafeContinuation<Void, Never>?
        var finished = false
    }

    private let state = Mutex(State())

    /// Queues `element`; dropped once the queue is finished.
    func push(_ element: Element) {
        let waiter: UnsafeContinuation<Void, Never>? = state.withLock { state in
            guard !state.finished else { return nil }
            state.items.append(element)
            defer { state.waiter = nil }
            return state.waiter
        }
        // The consumer takes the items itself, with whatever else was queued by the time it runs.
        waiter?.resume()
    }

    /// No more elements: a waiting or later `next(into:)` gets what is left, then an empty batch.
    func finish() {
        let waiter = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Replaces `batch` (its elements are dropped, its storage reused) with everything queued, in order, waiting
    /// while nothing is; leaves it empty once the queue is finished and drained, or the calling task is
    /// cancelled. One consumer only.
    func next(into batch: inout [Element]) async {
        batch.removeAll(keepingCapacity: true)
        while true {
            let done = state.withLock { state -> Bool in
                if !state.items.isEmpty {
                    swap(&batch, &state.items)
                    return true
                }
                return state.finished
            }
            if done || Task.isCancelled { return }
            await withTaskCancellationHandler {
                await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        if !state.items.isEmpty || state.finished || Task.isCancelled { return true }
                        state.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                finish()
            }
        }
    }
}
