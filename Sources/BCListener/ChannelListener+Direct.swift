import Synchronization

extension ChannelListener {
    /// Runs a session and hands each event to `handler` where its frame arrives: on the loop's thread, as soon as
    /// the frame is read (a timer's events on the timer's thread), with no task in between. Returns once the
    /// session is over: the live ended, the listener gave up, `handler` returned false, or the calling task was
    /// cancelled (the listener then leaves the server politely).
    ///
    /// For a consumer that does little with each event (write a line, count) and follows many channels at a
    /// live's pace: a message then costs the loop's one wake-up, where iterating costs a second, the consumer's
    /// task, for every message that arrives alone. `handler` must not block: it holds up every channel of the
    /// loop. It is called for one event at a time, in order, never twice at once for one listener; decoding runs
    /// where it does (the loop's thread), so heavy consumers of busy channels iterate instead.
    ///
    /// ```swift
    /// await listener.run { event in
    ///     if case .message(let message, _, _, _) = event { print(message.summary) }
    ///     return true
    /// }
    /// ```
    public func run(handler: @escaping @Sendable (BCListenerEvent) -> Bool) async {
        let driver = DirectDriver(handler: handler)
        let session = ListenerSession(listener: self, inputs: SessionInputs(driver: driver))
        await withTaskCancellationHandler {
            await driver.start(session)
        } onCancel: {
            driver.cancel()
        }
    }
}

/// Where a session's inputs go, from the loop's thread, its timer and its receive window: onto the queue its
/// consumer's task takes them from (`ChannelListener.Iterator`), or into a `DirectDriver`, which handles each
/// where it arrives.
final class SessionInputs: Sendable {
    let queue = BatchQueue<ChannelListener.Input>()
    private let driver: DirectDriver?

    init(driver: DirectDriver? = nil) {
        self.driver = driver
    }

    func push(_ input: ChannelListener.Input) {
        if let driver { driver.arrive(input) } else { queue.push(input) }
    }

    func finish() {
        queue.finish()
    }
}

/// Runs a `ListenerSession` on whichever thread its inputs arrive on, one thread at a time: an input that arrives
/// while another thread (or, re-entrantly, the same one) is running the session is queued, and the running thread
/// takes it before it lets go. The session's events go to the handler as they are made.
///
/// `@unchecked Sendable`: `session`, `batch` and every call of the session and of the handler are touched only by
/// the thread that holds the run (`State.running`), which is taken and given back under `state`'s lock; the lock
/// orders each holder's work before the next holder's. Until `start` the creator holds
/// the run, so inputs that arrive while the session is being made (its connect runs in `init`) wait for it.
final class DirectDriver: @unchecked Sendable {
    private struct State {
        var queued: [ChannelListener.Input] = []
        var running = true
        var cancelRequested = false
        var over = false
        var ended: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())
    private let handler: @Sendable (BCListenerEvent) -> Bool
    /// Touched only by the run's holder.
    private var session: ListenerSession?
    private var batch: [ChannelListener.Input] = []

    init(handler: @escaping @Sendable (BCListenerEvent) -> Bool) {
        self.handler = handler
    }

    /// Takes the session made with this driver, runs what arrived meanwhile, and returns once it is over.
    func start(_ session: ListenerSession) async {
        self.session = session
        drain()
        await withCheckedContinuation { continuation in
            let over = state.withLock { state in
                if state.over { return true }
                state.ended = continuation
                return false
            }
            if over { continuation.resume() }
        }
    }

    /// An input from the loop's thread, the timer or the window: run now, unless the session is running.
    func arrive(_ input: ChannelListener.Input) {
        let mine = state.withLock { state -> Bool in
            guard !state.over else { return false }
            state.queued.append(input)
            if state.running { return false }
            state.running = true
            return true
        }
        if mine { drain() }
    }

    /// The caller stopped waiting: the session leaves the server.
    func cancel() {
        let mine = state.withLock { state -> Bool in
            guard !state.over else { return false }
            state.cancelRequested = true
            if state.running { return false }
            state.running = true
            return true
        }
        if mine { drain() }
    }

    /// Runs the session over everything queued, handing out its events, until nothing is left; then gives the run
    /// back. Called only by the run's holder.
    private func drain() {
        guard let session else { return }
        while true {
            let cancelled = state.withLock { state -> Bool? in
                if state.queued.isEmpty, !state.cancelRequested {
                    state.running = false
                    return nil
                }
                swap(&batch, &state.queued)
                defer { state.cancelRequested = false }
                return state.cancelRequested
            }
            guard let cancelled else { return }
            if !batch.isEmpty { session.handle(batch) }
            batch.removeAll(keepingCapacity: true)
            if cancelled { session.handle([]) }
            while let event = session.takeEvent() {
                if !handler(event) {
                    session.handle([])
                    break
                }
            }
            if session.isOver {
                finish()
                return
            }
        }
    }

    /// The session is over: no input is taken any more, the session is let go (closing what is left), and the
    /// caller of `start` returns.
    private func finish() {
        let ended = state.withLock { state in
            state.over = true
            state.queued = []
            defer { state.ended = nil }
            return state.ended
        }
        session = nil
        ended?.resume()
    }
}
