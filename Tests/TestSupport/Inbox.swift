import Synchronization

/// A buffer that one long-lived task fills from an `AsyncSequence` (or a pipe's lines) and tests read with a
/// timeout.
///
/// Reading an `AsyncStream` directly inside a timeout would cancel the reading task on timeout,
/// and a cancelled consumer ends the stream (and so closes the connection under test). Here the
/// feeding task stays; only the waiter is cancelled.
public final class Inbox<Element: Sendable>: Sendable {
    private struct State {
        var buffer: [Element] = []
        var finished = false
        var waiter: (id: Int, continuation: CheckedContinuation<Element?, Never>)?
        var nextWaiterID = 0
    }

    private let state = Mutex(State())
    private let feeder = Mutex<Task<Void, Never>?>(nil)

    public init() {}

    /// Starts a task that moves every element of `sequence` in here: that task is the sequence's consumer.
    public convenience init<Source: AsyncSequence<Element, Never> & Sendable>(_ sequence: Source) {
        self.init(sequence) { $0 }
    }

    /// Starts a task that moves every element of `sequence` in here, changed by `transform` (to stamp it with
    /// the time it came, say).
    public convenience init<Source: AsyncSequence<Input, Never> & Sendable, Input>(
        _ sequence: Source, _ transform: @escaping @Sendable (Input) -> Element
    ) {
        self.init()
        let task = Task { [self] in
            for await element in sequence { self.push(transform(element)) }
            self.finish()
        }
        feeder.withLock { $0 = task }
    }

    /// Stops feeding: cancels the task reading the sequence (for a stream, that ends it).
    public func cancel() {
        feeder.withLock { $0?.cancel() }
    }

    public func push(_ element: Element) {
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

    public func finish() {
        let waiter = state.withLock { state in
            state.finished = true
            let waiter = state.waiter
            state.waiter = nil
            return waiter
        }
        waiter?.continuation.resume(returning: nil)
    }

    /// The next element, or `nil` once the stream finished; throws `TimedOut`.
    public func next(within timeout: Duration = .seconds(5), _ what: String = "the next event") async throws -> Element? {
        try await withTimeout(timeout, what) { await self.take() }
    }

    /// Skips elements until one matches; throws `TimedOut`, or if the stream ends first.
    public func first(
        within timeout: Duration = .seconds(5), _ what: String, where matches: @escaping @Sendable (Element) -> Bool
    ) async throws -> Element {
        try await withTimeout(timeout, what) {
            while let element = await self.take() {
                if matches(element) { return element }
            }
            throw TimedOut(what: "\(what) (stream ended)", after: timeout)
        }
    }

    /// Every element until the sequence finishes; throws `TimedOut` if it has not finished by then.
    public func all(within timeout: Duration = .seconds(10), _ what: String = "the end of the sequence")
        async throws -> [Element] {
        try await withTimeout(timeout, what) {
            var elements: [Element] = []
            while let element = await self.take() { elements.append(element) }
            return elements
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
