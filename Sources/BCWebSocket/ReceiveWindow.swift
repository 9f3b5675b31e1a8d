import Synchronization

/// Flow control between a connection's loop thread and the consumer of its messages: a bound on messages
/// received but not yet consumed. When the window holds `maxMessages` messages or `maxBytes` bytes, the loop
/// stops reading the connection's socket (libwebsockets' receive flow control), so TCP pushes back on the
/// sender; when the consumer has released enough of them (half of either bound), reading resumes.
///
/// The loop `admit`s each delivered message; the consumer `release`s each once it is done with it. One window
/// may serve successive connections of one consumer (reconnects): what an old connection left unconsumed still
/// counts, because it is still in memory. While a connection is paused, the binding keeps its WebSocket
/// keepalive from hanging up on a peer whose pongs are merely unread, and says so through `onChange`.
public final class ReceiveWindow: Sendable {
    /// The most messages held before reading pauses.
    public let maxMessages: Int
    /// The most bytes (of frame payload) held before reading pauses.
    public let maxBytes: Int

    private struct State {
        var messages = 0
        var bytes = 0
        /// How to resume each connection paused by this window.
        var resumers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())
    /// `State.messages`, mirrored (written under the lock), for `hasHeldMessages`: a consumer asks after every
    /// message whether more wait, and a lock taken on its thread and the loop's in turn costs a cache line's trip
    /// between cores each time.
    private let heldMessages = Atomic<Int>(0)
    private let onChange: @Sendable (_ paused: Bool) -> Void

    /// - Parameters:
    ///   - maxMessages: messages held before reading pauses; at least 1.
    ///   - maxBytes: payload bytes held before reading pauses; at least 1.
    ///   - onChange: called with `true` when reading pauses and `false` when it resumes, in that order, on any
    ///     thread and under the window's lock: keep it short and never call back into the window.
    public init(maxMessages: Int = 1_024, maxBytes: Int = 4 << 20,
                onChange: @escaping @Sendable (_ paused: Bool) -> Void = { _ in }) {
        self.maxMessages = max(1, maxMessages)
        self.maxBytes = max(1, maxBytes)
        self.onChange = onChange
    }

    /// Messages and bytes held now.
    public var held: (messages: Int, bytes: Int) {
        state.withLock { ($0.messages, $0.bytes) }
    }

    /// Whether any message is held (delivered and not yet released), read without the lock.
    public var hasHeldMessages: Bool {
        heldMessages.load(ordering: .acquiring) > 0
    }

    /// True while a connection is paused by this window.
    public var isPaused: Bool {
        state.withLock { !$0.resumers.isEmpty }
    }

    /// The consumer is done with a message of `bytes` bytes. Resumes reading once the window is half empty.
    public func release(bytes: Int) {
        release(messages: 1, bytes: bytes)
    }

    /// The consumer is done with `messages` messages of `bytes` bytes in all: one lock for a batch of them.
    public func release(messages: Int, bytes: Int) {
        let resumers: [@Sendable () -> Void] = state.withLock { state in
            state.messages = max(0, state.messages - messages)
            state.bytes = max(0, state.bytes - bytes)
            heldMessages.store(state.messages, ordering: .releasing)
            guard !state.resumers.isEmpty, state.messages <= maxMessages / 2, state.bytes <= maxBytes / 2 else {
                return []
            }
            defer { state.resumers = [] }
            // Under the lock, so that pauses and resumes are told in the order they happened.
            onChange(false)
            return state.resumers
        }
        for resume in resumers { resume() }
    }

    /// Loop thread: a message of `bytes` bytes was delivered. Returns true when the connection must pause now;
    /// `resume` is then kept and called once the consumer has caught up.
    func admit(bytes: Int, resume: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            state.messages += 1
            state.bytes += bytes
            heldMessages.store(state.messages, ordering: .releasing)
            guard state.messages >= maxMessages || state.bytes >= maxBytes else { return false }
            state.resumers.append(resume)
            if state.resumers.count == 1 { onChange(true) }
            return true
        }
    }
}
