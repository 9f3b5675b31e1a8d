@testable import BCWebSocket
import Synchronization
import Testing

/// `ReceiveWindow`'s counts, without a connection: what the loop admits and the consumer releases, one at a time
/// or a batch at once.
@Suite struct ReceiveWindowTests {
    @Test("a batch released at once resumes reading once, when the window is half empty, as single releases do")
    func aBatchReleaseResumesOnceAtHalf() {
        let changes = Mutex<[Bool]>([])
        let window = ReceiveWindow(maxMessages: 8, maxBytes: 1 << 20) { paused in
            changes.withLock { $0.append(paused) }
        }
        let resumed = Atomic<Int>(0)
        var pauses = 0
        for _ in 0..<8 where window.admit(bytes: 10, resume: { resumed.add(1, ordering: .relaxed) }) { pauses += 1 }
        #expect(pauses == 1 && window.isPaused && window.held == (8, 80))
        window.release(messages: 3, bytes: 30)  // 5 held: more than half of 8
        #expect(resumed.load(ordering: .relaxed) == 0 && window.isPaused)
        window.release(messages: 2, bytes: 20)  // 3 held
        #expect(resumed.load(ordering: .relaxed) == 1 && !window.isPaused)
        #expect(changes.withLock { $0 } == [true, false])
        #expect(window.held == (3, 30) && window.hasHeldMessages)
    }

    @Test("hasHeldMessages follows what is admitted and released, and a release never counts below zero")
    func heldMessagesFollowTheCounts() {
        let window = ReceiveWindow()
        #expect(!window.hasHeldMessages)
        _ = window.admit(bytes: 5, resume: {})
        _ = window.admit(bytes: 7, resume: {})
        #expect(window.hasHeldMessages)
        window.release(messages: 2, bytes: 12)
        #expect(!window.hasHeldMessages && window.held == (0, 0))
        window.release(messages: 4, bytes: 100)
        #expect(!window.hasHeldMessages && window.held == (0, 0))
    }
}
