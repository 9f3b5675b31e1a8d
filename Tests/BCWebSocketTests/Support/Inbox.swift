import Synchronization

/// Thrown when an awaited event does not come in time.
struct TimedOut: Error, CustomStringConvertible {
    let what: String
    let after: Duration
    var description: String { "timed out after \(after) waiting for \(what)" }
}

/// Races `body` against a deadline; the loser is cancelled.
func withTimeout<T: Sendable>(
    _ timeout: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw TimedOut(what: what, after: timeout)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw TimedOut(what: what, after: timeout) }
        return first
    }
}

/// A buffer that one long-lived task fills from an `AsyncStream` and tests read with a timeout.
///
/// Reading an `AsyncStream` directly inside a timeout would cancel the reading task on timeout,
/// and a cancelled consumer ends the stream (and so closes the connection under test). Here the
/// feeding task stays; only the waiter is cancelled.
final class Inbox<Element: Sendable>: Sendable {
    private struct State {
        var buffer: [Element] = []
        var finished = false
        var waiter: (id: Int, continuation: CheckedContinuation<Element?, Never>)?
        var nextWaiterID = 0
    }

    private let state = Mutex(State())
    private let feeder = Mutex<Task<Void, Never>?>(nil)

    init() {}

    /// Starts a task that moves every element of `stream` in here.
    convenience init(_ stream: AsyncStream<Element>) {
        self.init()
        let task = Task { [self] in
            for await element in stream { self.push(element) }
            self.finish()
        }
        feeder.withLock { $0 = task }
    }

    /// Stops feeding: cancels the task reading the stream (which ends that stream).
    func cancel() {
        feeder.withLock { $0?.cancel() }
    }

    func push(_ element: Element) {
        let waiter: CheckedContinuation<Element?, Never>? = state.withLock { state in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter.continuation
            }
            state.buffer.append(element)
            return nil
        }
        waiter?.resume(returning: element)
    }

    func finish() {
        let waiter = state.withLock { state in
            state.finished = true
            let waiter = state.waiter
            state.waiter = nil
            return waiter
        }
        waiter?.continuation.resume(returning: nil)
    }

    /// The next element, or `nil` once the stream finished; throws `TimedOut`.
    func next(within timeout: Duration = .seconds(5), _ what: String = "the next event") async throws -> Element? {
        try await withTimeout(timeout, what) { await self.take() }
    }

    /// Skips elements until one matches; throws `TimedOut`, or if the stream ends first.
    func first(
        within timeout: Duration = .seconds(5), _ what: String, where matches: @escaping @Sendable (Element) -> Bool
    ) async throws -> Element {
        try await withTimeout(timeout, what) {
            while let element = await self.take() {
                if matches(element) { return element }
            }
            throw TimedOut(what: "\(what) (stream ended)", after: timeout)
        }
    }

    private func take() async -> Element? {
        let id = state.withLock { state -> Int in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
                let now: Take<Element> = state.withLock { state in
                    if !state.buffer.isEmpty { return .value(state.buffer.removeFirst()) }
                    if state.finished || Task.isCancelled { return .value(nil) }
                    state.waiter = (id, continuation)
                    return .wait
                }
                if case .value(let element) = now { continuation.resume(returning: element) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Element?, Never>? in
                guard let waiter = state.waiter, waiter.id == id else { return nil }
                state.waiter = nil
                return waiter.continuation
            }
            waiter?.resume(returning: nil)
        }
    }
}

private enum Take<Element> {
    case value(Element?)
    case wait
}
