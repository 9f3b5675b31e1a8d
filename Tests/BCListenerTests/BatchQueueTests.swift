@testable import BCListener
import Foundation
import Testing

/// The hand-over from the loop's thread to the consumer: everything queued at once, in order, nothing lost or
/// given twice, the consumer's array reused.
@Suite(.timeLimit(.minutes(1)))
struct BatchQueueTests {
    @Test func everythingPushedFromAnotherThreadArrivesInOrderOnceThenTheEnd() async {
        let queue = BatchQueue<Int>()
        let total = 100_000
        let producer = Thread {
            for value in 0..<total { queue.push(value) }
            queue.finish()
        }
        producer.start()
        var received: [Int] = []
        var batch: [Int] = []
        while true {
            await queue.next(into: &batch)
            if batch.isEmpty { break }
            received += batch
        }
        #expect(received == Array(0..<total))
        queue.push(1)  // dropped: finished
        await queue.next(into: &batch)
        #expect(batch.isEmpty)
    }

    @Test func aWaitingConsumerGetsWhatCameAndItsOldBatchIsDropped() async {
        let queue = BatchQueue<String>()
        var batch = ["old"]
        queue.push("a")
        queue.push("b")
        await queue.next(into: &batch)
        #expect(batch == ["a", "b"])
        let waiting = Task {
            var batch: [String] = []
            await queue.next(into: &batch)
            return batch
        }
        try? await Task.sleep(for: .milliseconds(50))
        queue.push("c")
        #expect(await waiting.value == ["c"])
    }

    @Test func aCancelledConsumerGetsAnEmptyBatchAndTheQueueIsFinished() async {
        let queue = BatchQueue<Int>()
        let waiting = Task {
            var batch: [Int] = [9]
            await queue.next(into: &batch)
            return batch
        }
        try? await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        #expect(await waiting.value == [])
        queue.push(1)
        var batch: [Int] = []
        await queue.next(into: &batch)
        #expect(batch.isEmpty)
    }
}
