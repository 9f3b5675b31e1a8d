import BCListener
import BCMessages
import Testing

/// Each transition of the session machine, action by action.
@Suite struct SessionTransitionTests {
    typealias Event = BCSessionStateMachine.Event
    let key = Sample.key

    @Test func startConnectsWithAConnectTimeout() {
        var session = Session()
        #expect(session.on(.start, at: 5) == [.connect(attempt: 1), .setTimer(at: .seconds(15))])
    }

    @Test func aSecondStartIsIgnored() {
        var session = Session()
        session.on(.start, at: 0)
        #expect(session.on(.start, at: 1) == [])
    }

    @Test func openingSubscribesAndSchedulesTheFirstPing() {
        var session = Session()
        session.on(.start, at: 0)
        #expect(session.on(.connectionOpened, at: 2) == [
            .emit(.connected(key: key)),
            .send("SUB\t118f91f:UdoBre1M"),
            .emit(.subscribed(key: key)),
            .setTimer(at: .seconds(32)),
        ])
    }

    @Test func everyReconnectionSubscribesAgain() {
        var session = Session.open()
        session.on(.connectionClosed(.closed(code: 1006, reason: "")), at: 1)
        session.on(.timerFired, at: 2)
        let actions = session.on(.connectionOpened, at: 3)
        #expect(actions.contains(.send("SUB\t118f91f:UdoBre1M")))
        #expect(actions.events == [.connected(key: key), .subscribed(key: key)])
    }

    @Test func aFailedAttemptWaitsThenConnectsAgain() {
        var session = Session()
        session.on(.start, at: 0)
        #expect(session.on(.connectFailed(.refused), at: 2) == [
            .emit(.reconnecting(attempt: 2, delay: .seconds(1), reason: .refused)),
            .setTimer(at: .seconds(3)),
        ])
        #expect(session.on(.timerFired, at: 3) == [.connect(attempt: 2), .setTimer(at: .seconds(13))])
    }

    @Test func aCloseBeforeTheSocketOpenedIsAFailedAttempt() {
        var session = Session()
        session.on(.start, at: 0)
        #expect(session.on(.connectionClosed(.closed(code: 1006, reason: "")), at: 1).events == [
            .reconnecting(attempt: 2, delay: .seconds(1), reason: .closed(code: 1006, reason: "")),
        ])
    }

    @Test func aTimerBeforeTheReconnectIsDueOnlyRearmsIt() {
        var session = Session()
        session.on(.start, at: 0)
        session.on(.connectFailed(.refused), at: 2)
        #expect(session.on(.timerFired, at: 2.5) == [.setTimer(at: .seconds(3))])
        #expect(session.on(.timerFired, at: 3) == [.connect(attempt: 2), .setTimer(at: .seconds(13))])
    }

    @Test func anAttemptThatTakesTooLongIsAbandonedAndRetried() {
        var session = Session()
        session.on(.start, at: 0)
        #expect(session.on(.timerFired, at: 9) == [.setTimer(at: .seconds(10))])
        #expect(session.on(.timerFired, at: 10) == [
            .close(code: 1001, reason: "connection timed out"),
            .emit(.reconnecting(attempt: 2, delay: .seconds(1), reason: .timedOut(after: .seconds(10)))),
            .setTimer(at: .seconds(11)),
        ])
        // The abandoned attempt's own news is no longer about the session.
        #expect(session.on(.connectionOpened, at: 10.5) == [])
    }

    @Test func aServerThatGotTheRequestAndNeverAnsweredItIsAHandshakeTimeout() {
        var session = Session()
        session.on(.start, at: 0)
        #expect(session.on(.upgradeRequested, at: 0.1) == [])
        #expect(session.on(.timerFired, at: 10) == [
            .close(code: 1001, reason: "connection timed out"),
            .emit(.reconnecting(attempt: 2, delay: .seconds(1), reason: .handshakeTimedOut(after: .seconds(10)))),
            .setTimer(at: .seconds(11)),
        ])
        // A new attempt starts before its request is sent: its timeout is the network's again.
        session.on(.timerFired, at: 11)
        #expect(session.on(.timerFired, at: 21).contains(
            .emit(.reconnecting(attempt: 3, delay: .seconds(2), reason: .timedOut(after: .seconds(10))))))
    }

    @Test func aLostConnectionIsReportedThenRetried() {
        var session = Session.open()
        #expect(session.on(.connectionClosed(.closed(code: 1006, reason: "")), at: 2) == [
            .emit(.disconnected(.closed(code: 1006, reason: ""))),
            .emit(.reconnecting(attempt: 2, delay: .seconds(1), reason: .closed(code: 1006, reason: ""))),
            .setTimer(at: .seconds(3)),
        ])
    }

    @Test func cancellingBeforeStartingFinishes() {
        var session = Session()
        #expect(session.on(.cancel, at: 0) == [.cancelTimer, .finish])
        #expect(session.machine.isFinished)
    }

    @Test func cancellingWhileConnectingAbandonsTheAttempt() {
        var session = Session()
        session.on(.start, at: 0)
        #expect(session.on(.cancel, at: 1) == [.cancelTimer, .close(code: 1000, reason: "cancelled"), .finish])
        #expect(session.machine.isFinished)
    }

    @Test func cancellingAnOpenSessionClosesIt() {
        var session = Session.open()
        #expect(session.on(.cancel, at: 1) == [.cancelTimer, .close(code: 1000, reason: "cancelled"), .finish])
        #expect(session.machine.isFinished)
    }

    @Test func cancellingWhileWaitingToReconnectFinishes() {
        var session = Session()
        session.on(.start, at: 0)
        session.on(.connectFailed(.dnsFailed), at: 1)
        #expect(session.on(.cancel, at: 1.5) == [.cancelTimer, .finish])
        #expect(session.machine.isFinished)
    }

    static let everyEvent: [Event] = [
        .start, .connectionOpened, .frameReceived(Sample.msg("{\"t\":27}"), receivedAt: Sample.receivedAt),
        .connectFailed(.refused), .connectionClosed(.pingTimeout), .timerFired, .cancel,
    ]

    @Test(arguments: everyEvent)
    func aFinishedSessionIgnoresEverything(_ event: Event) {
        var session = Session.open()
        session.on(.cancel, at: 1)
        #expect(session.on(event, at: 100) == [])
    }

    @Test(arguments: [Event.connectionOpened, .frameReceived("ACK", receivedAt: Sample.receivedAt),
                      .connectFailed(.refused), .connectionClosed(.pingTimeout), .timerFired])
    func eventsThatCannotHappenBeforeStartAreIgnored(_ event: Event) {
        var session = Session()
        #expect(session.on(event, at: 1) == [])
        #expect(session.on(.start, at: 2) == [.connect(attempt: 1), .setTimer(at: .seconds(12))])
    }

    @Test func aFrameBeforeTheSocketOpenedIsIgnored() {
        var session = Session()
        session.on(.start, at: 0)
        #expect(session.frame(Sample.msg("{\"t\":27}"), at: 1) == [])
    }

    @Test func aSecondOpenIsIgnored() {
        var session = Session.open()
        #expect(session.on(.connectionOpened, at: 1) == [])
    }

    @Test(arguments: [Event.connectionOpened, .frameReceived("ACK", receivedAt: Sample.receivedAt),
                      .connectFailed(.refused), .connectionClosed(.pingTimeout)])
    func newsOfAConnectionAlreadyLeftIsIgnoredWhileWaiting(_ event: Event) {
        var session = Session.open()
        session.on(.connectionClosed(.refused), at: 1)
        #expect(session.on(event, at: 1.5) == [])
        #expect(session.on(.timerFired, at: 2) == [.connect(attempt: 2), .setTimer(at: .seconds(12))])
    }
}
