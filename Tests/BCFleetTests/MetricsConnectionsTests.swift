@testable import BCFleet
import Testing

/// The metrics server's connection table, with integer time: who is closed when the table is full, when a
/// deadline passes, and that a connection gone is never named again.
@Suite struct MetricsConnectionsTests {
    @Test func aFullTableClosesTheOldestConnectionStillWaitingForItsRequest() {
        var table = MetricsConnections<Int, Int>(capacity: 3)
        #expect(table.opened(1, deadline: 10) == nil)
        #expect(table.opened(2, deadline: 11) == nil)
        #expect(table.opened(3, deadline: 12) == nil)
        // 1 is being answered: it is not a waiter, 2 is the oldest waiter.
        table.requestArrived(1, answerBy: 20)
        #expect(table.opened(4, deadline: 13) == 2)
        #expect(table.count == 3)
        #expect(table.phase(of: 2) == nil)
        // 3 closed by its peer: 4 is the oldest waiter now.
        table.closed(3)
        #expect(table.opened(5, deadline: 14) == nil)
        #expect(table.opened(6, deadline: 15) == 4)
    }

    @Test func aTableOfConnectionsBeingAnsweredClosesNone() {
        var table = MetricsConnections<Int, Int>(capacity: 2)
        _ = table.opened(1, deadline: 10)
        _ = table.opened(2, deadline: 10)
        table.requestArrived(1, answerBy: 20)
        table.requestArrived(2, answerBy: 20)
        #expect(table.opened(3, deadline: 11) == nil)
        #expect(table.count == 3)
    }

    @Test func theWholeRequestHasADeadlineAndSoHasTheAnswer() {
        var table = MetricsConnections<Int, Int>(capacity: 10)
        _ = table.opened(1, deadline: 5)
        _ = table.opened(2, deadline: 6)
        _ = table.opened(3, deadline: 7)
        table.requestArrived(2, answerBy: 9)
        #expect(table.expired(at: 4).isEmpty)
        #expect(table.expired(at: 5) == [1])
        #expect(table.expired(at: 8) == [3])
        #expect(table.expired(at: 9) == [2])
        #expect(table.count == 0)
        #expect(table.expired(at: 100).isEmpty)
    }

    @Test func aConnectionClosedOrAlreadyExpiredIsNeverNamedAgain() {
        var table = MetricsConnections<Int, Int>(capacity: 2)
        _ = table.opened(1, deadline: 5)
        table.closed(1)
        _ = table.opened(2, deadline: 6)
        #expect(table.expired(at: 10) == [2])
        #expect(table.evictOldestAwaiting() == nil)
        _ = table.opened(3, deadline: 20)
        _ = table.opened(4, deadline: 21)
        #expect(table.evictOldestAwaiting() == 3)
        #expect(table.evictOldestAwaiting() == 4)
        #expect(table.evictOldestAwaiting() == nil)
    }

    /// A flood far past the capacity: each new connection closes exactly one, the table never grows past its
    /// capacity, and the work stays linear (the queues drop what they consumed).
    @Test func aFloodKeepsTheTableAtItsCapacity() {
        var table = MetricsConnections<Int, Int>(capacity: 100)
        var evicted = 0
        var notTheOldest = 0
        for id in 0..<200_000 {
            if let old = table.opened(id, deadline: id + 1_000_000) {
                if old != id - 100 { notTheOldest += 1 }
                evicted += 1
            }
        }
        #expect(evicted == 200_000 - 100)
        #expect(notTheOldest == 0)
        #expect(table.count == 100)
    }
}
