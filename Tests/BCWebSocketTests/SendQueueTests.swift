@testable import BCWebSocket
import Testing

/// A connection's send queue (`ServiceSession`): frames go out in order, and the ones sent are released even when
/// the queue never empties.
@Suite struct SendQueueTests {
    private static func session() -> ServiceSession {
        ServiceSession(id: 1, client: nil, stage: .open, maxMessageSize: 1 << 20)
    }

    @Test(arguments: [false, true])
    func aQueueThatNeverEmptiesKeepsOnlyWhatIsUnsent(_ inBursts: Bool) {
        let session = Self.session()
        var sent: [UInt8] = []
        var next: UInt8 = 0
        // Always a few frames ahead of the writer, for 100,000 frames: the queue is never empty.
        for _ in 0..<4 {
            session.enqueue([next], binary: false, fragments: 1)
            next &+= 1
        }
        var largest = 0
        for _ in 0..<25_000 {
            for _ in 0..<4 {
                session.enqueue([next], binary: false, fragments: 1)
                next &+= 1
            }
            if inBursts {
                session.dequeueFrames(upTo: 4) { frames in sent += frames.flatMap(\.bytes) }
            } else {
                for _ in 0..<4 { session.dequeueFrames(upTo: 0) { frames in sent += frames.flatMap(\.bytes) } }  // one each
            }
            largest = max(largest, session.heldFrames)
        }
        #expect(session.hasOutgoing, "the queue never emptied")
        #expect(largest <= 256, "held at most \(largest) frames, sent ones released")
        #expect(sent == (0..<sent.count).map { UInt8(truncatingIfNeeded: $0) }, "every frame once, in order")
        #expect(sent.count == 100_000)
    }
}
