import BCListener
import Testing

/// The bcsvr PING/ACK keepalive, as the official app runs it.
@Suite struct KeepaliveTests {
    @Test(arguments: [10.0, 30, 45])
    func pingsAtExactlyEachIntervalWhileAcknowledged(_ interval: Double) {
        var session = Session.open(Sample.configuration { $0.pingInterval = .seconds(interval) }, at: 7)
        for n in 1...20 {
            let due = 7 + Double(n) * interval
            #expect(session.on(.timerFired, at: due) == [.send("PING"), .setTimer(at: .seconds(due + interval))])
            #expect(session.frame("ACK", at: due + 0.2) == [])
        }
    }

    @Test func noPingBeforeItIsDue() {
        var session = Session.open()
        #expect(session.on(.timerFired, at: 29.9) == [.setTimer(at: .seconds(30))])
        #expect(session.on(.timerFired, at: 30) == [.send("PING"), .setTimer(at: .seconds(60))])
    }

    @Test func aDeadLinkIsFoundAtTheFirstBoundaryWithoutAck() {
        var session = Session.open()
        session.on(.timerFired, at: 30)
        #expect(session.on(.timerFired, at: 59.9) == [.setTimer(at: .seconds(60))])
        // Held 60 s, longer than stableAfter: the reconnect is attempt 1.
        #expect(session.on(.timerFired, at: 60) == [
            .close(code: 1001, reason: "no ACK to PING"),
            .emit(.disconnected(.pingTimeout)),
            .emit(.reconnecting(attempt: 1, delay: .seconds(1), reason: .pingTimeout)),
            .setTimer(at: .seconds(61)),
        ])
        #expect(session.on(.timerFired, at: 61) == [.connect(attempt: 1), .setTimer(at: .seconds(71))])
    }

    @Test func anAckJustInTimeKeepsTheLinkAlive() {
        var session = Session.open()
        session.on(.timerFired, at: 30)
        session.frame("ACK", at: 59.999)
        #expect(session.on(.timerFired, at: 60) == [.send("PING"), .setTimer(at: .seconds(90))])
    }

    @Test func aLaterPingWithoutAckIsStillFound() {
        var session = Session.open()
        session.on(.timerFired, at: 30)
        session.frame("ACK", at: 31)
        session.on(.timerFired, at: 60)
        session.frame("ACK", at: 61)
        session.on(.timerFired, at: 90)
        #expect(session.on(.timerFired, at: 120).events.first == .disconnected(.pingTimeout))
    }

    @Test(arguments: ["ACK", "ACK\tword", "ACK\r\n", "MSG\t118f91f:UdoBre1M\t{\"t\":27}\nACK\n"])
    func anyAckFormCounts(_ frame: String) {
        var session = Session.open()
        session.on(.timerFired, at: 30)
        session.frame(frame, at: 31)
        #expect(session.on(.timerFired, at: 60).first == .send("PING"))
    }

    @Test func messagesAreNoAnswerToPing() {
        var session = Session.open()
        session.on(.timerFired, at: 30)
        session.frame(Sample.msg("{\"t\":27}"), at: 40)
        #expect(session.on(.timerFired, at: 60).events.first == .disconnected(.pingTimeout))
    }

    @Test func anAckBeforeAnyPingDoesNotCoverTheNextOne() {
        var session = Session.open()
        session.frame("ACK", at: 1)               // the answer to SUB
        session.on(.timerFired, at: 30)
        #expect(session.on(.timerFired, at: 60).events.first == .disconnected(.pingTimeout))
    }

    @Test func aLateTimerKeepsTheSchedule() {
        var session = Session.open()
        #expect(session.on(.timerFired, at: 45) == [.send("PING"), .setTimer(at: .seconds(60))])
    }

    @Test func aTimerLateByMoreThanAnIntervalStartsAFreshSchedule() {
        var session = Session.open()
        #expect(session.on(.timerFired, at: 75) == [.send("PING"), .setTimer(at: .seconds(105))])
    }

    @Test func aShortLivedDeadLinkCountsAsAFailedAttempt() {
        var session = Session.open(Sample.configuration { $0.pingInterval = .seconds(2) })
        session.on(.timerFired, at: 2)
        #expect(session.on(.timerFired, at: 4).events.last == .reconnecting(
            attempt: 2, delay: .seconds(1), reason: .pingTimeout))
    }
}
