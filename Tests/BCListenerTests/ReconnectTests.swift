import BCListener
import Testing

/// When the session retries, how long it waits, and when it gives up.
@Suite struct ReconnectTests {
    /// Fails `count` attempts in a row, one second after each connect, and returns the reconnecting events.
    static func fail(_ count: Int, session: inout Session, with failure: BCTransportFailure = .refused,
                     from start: Double = 0) -> [BCListenerEvent] {
        var now = Duration.seconds(start)
        var events: [BCListenerEvent] = []
        for _ in 0..<count {
            now += .seconds(1)
            let actions = session.machine.handle(.connectFailed(failure), at: now)
            events += actions.events
            guard case .setTimer(let at)? = actions.last else { break }
            // Exactly when it was set for: through Double, a jittered instant could come out a hair early.
            now = at
            guard case .connect? = session.machine.handle(.timerFired, at: now).first else {
                Issue.record("no connect when the reconnect timer fired at \(now)")
                break
            }
        }
        return events
    }

    @Test func delaysGrowExponentiallyUpToTheCap() {
        var session = Session()
        session.on(.start, at: 0)
        let events = Self.fail(8, session: &session)
        #expect(events == [1.0, 2, 4, 8, 16, 30, 30, 30].enumerated().map { index, seconds in
            .reconnecting(attempt: index + 2, delay: .seconds(seconds), reason: .refused)
        })
    }

    @Test(arguments: [UInt64(1), 7, 2024])
    func jitteredDelaysStayWithinBoundsOverManyAttempts(_ seed: UInt64) {
        let backoff = BCListenerConfiguration.Backoff()
        var session = Session(generator: SplitMix64(seed: seed))
        session.on(.start, at: 0)
        let events = Self.fail(200, session: &session)
        #expect(events.count == 200)
        for case .reconnecting(let attempt, let delay, _) in events {
            let base = backoff.baseDelay(forRetry: attempt - 1).seconds
            #expect(delay.seconds >= base * 0.8 - 1e-9 && delay.seconds <= base * 1.2 + 1e-9, "attempt \(attempt)")
            #expect(delay.seconds <= 30 * 1.2 + 1e-9)
        }
    }

    @Test func theJitterComesFromTheInjectedGenerator() {
        var lowest = Session(generator: FixedGenerator.lowest)
        lowest.on(.start, at: 0)
        var highest = Session(generator: FixedGenerator.highest)
        highest.on(.start, at: 0)
        guard case .reconnecting(_, let short, _)? = lowest.on(.connectFailed(.refused), at: 0).events.first,
              case .reconnecting(_, let long, _)? = highest.on(.connectFailed(.refused), at: 0).events.first
        else { Issue.record("no reconnecting event"); return }
        #expect(abs(short.seconds - 0.8) < 1e-9)
        #expect(abs(long.seconds - 1.2) < 1e-9)
    }

    @Test func aConnectionThatHeldStableAfterResetsTheCount() {
        var session = Session()
        session.on(.start, at: 0)
        _ = Self.fail(3, session: &session)               // attempts 1–3 failed; attempt 4 is connecting
        session.on(.connectionOpened, at: 100)
        let events = session.on(.connectionClosed(.closed(code: 1006, reason: "")), at: 110).events
        #expect(events.last == .reconnecting(attempt: 1, delay: .seconds(1), reason: .closed(code: 1006, reason: "")))
        session.on(.timerFired, at: 111)
        // And the count goes on from there.
        #expect(session.on(.connectFailed(.refused), at: 112).events == [
            .reconnecting(attempt: 2, delay: .seconds(1), reason: .refused),
        ])
    }

    @Test func aConnectionThatDroppedBeforeStableAfterCountsAsAFailedAttempt() {
        var session = Session()
        session.on(.start, at: 0)
        _ = Self.fail(3, session: &session)
        session.on(.connectionOpened, at: 100)
        let events = session.on(.connectionClosed(.closed(code: 1006, reason: "")), at: 109.999).events
        #expect(events.last == .reconnecting(attempt: 5, delay: .seconds(8), reason: .closed(code: 1006, reason: "")))
    }

    static let fatalStatuses = [401, 403, 404, 400, 410]

    @Test(arguments: fatalStatuses)
    func aRejectingStatusStopsWithoutRetrying(_ status: Int) {
        var session = Session()
        session.on(.start, at: 0)
        #expect(session.on(.connectFailed(.httpStatus(status)), at: 1) == [
            .emit(.failed(.rejected(.httpStatus(status)))), .cancelTimer, .finish,
        ])
        #expect(session.machine.isFinished)
    }

    @Test(arguments: fatalStatuses)
    func aRejectingStatusStopsEvenAfterEarlierFailures(_ status: Int) {
        var session = Session()
        session.on(.start, at: 0)
        _ = Self.fail(3, session: &session)
        #expect(session.on(.connectFailed(.httpStatus(status)), at: 50).events == [
            .failed(.rejected(.httpStatus(status))),
        ])
    }

    static let retryableFailures: [BCTransportFailure] = [
        .httpStatus(500), .httpStatus(502), .httpStatus(503), .httpStatus(504), .httpStatus(408),
        .httpStatus(429), .httpStatus(302), .dnsFailed, .refused, .timedOut(after: .seconds(10)),
        .closed(code: 1011, reason: "restart"), .pingTimeout, .other("ENETUNREACH"),
    ]

    @Test func aTLSFailureIsFinal() {
        var session = Session()
        session.on(.start, at: 0)
        #expect(session.on(.connectFailed(.tls("certificate not trusted")), at: 1).events == [
            .failed(.rejected(.tls("certificate not trusted"))),
        ])
    }

    @Test(arguments: retryableFailures)
    func networkErrorsTimeoutsAndServerErrorsAreRetried(_ failure: BCTransportFailure) {
        var session = Session()
        session.on(.start, at: 0)
        #expect(session.on(.connectFailed(failure), at: 1).events == [
            .reconnecting(attempt: 2, delay: .seconds(1), reason: failure),
        ])
    }

    @Test(arguments: [1, 2, 5])
    func maxAttemptsStopsAfterThatManyFailuresInARow(_ maxAttempts: Int) {
        var session = Session(Sample.configuration { $0.maxAttempts = maxAttempts })
        session.on(.start, at: 0)
        let events = Self.fail(maxAttempts, session: &session, with: .dnsFailed)
        #expect(events.count == maxAttempts)
        #expect(events.dropLast().allSatisfy {
            if case .reconnecting = $0 { true } else { false }
        })
        #expect(events.last == .failed(.retriesExhausted(attempts: maxAttempts, lastFailure: .dnsFailed)))
        #expect(session.machine.isFinished)
    }

    @Test func droppedConnectionsCountTowardsMaxAttempts() {
        var session = Session(Sample.configuration { $0.maxAttempts = 2 })
        session.on(.start, at: 0)
        session.on(.connectionOpened, at: 0)
        session.on(.connectionClosed(.closed(code: 1006, reason: "")), at: 1)
        session.on(.timerFired, at: 2)
        session.on(.connectionOpened, at: 2)
        #expect(session.on(.connectionClosed(.closed(code: 1006, reason: "")), at: 3).events == [
            .disconnected(.closed(code: 1006, reason: "")),
            .failed(.retriesExhausted(attempts: 2, lastFailure: .closed(code: 1006, reason: ""))),
        ])
    }

    @Test func aStableConnectionGivesMaxAttemptsBackInFull() {
        var session = Session(Sample.configuration { $0.maxAttempts = 2 })
        session.on(.start, at: 0)
        _ = Self.fail(1, session: &session)               // attempt 2 is connecting
        session.on(.connectionOpened, at: 10)
        session.on(.connectionClosed(.closed(code: 1001, reason: "")), at: 40)
        session.on(.timerFired, at: 41)                    // attempt 1 again
        #expect(session.on(.connectFailed(.refused), at: 42).events == [
            .reconnecting(attempt: 2, delay: .seconds(1), reason: .refused),
        ])
    }
}
