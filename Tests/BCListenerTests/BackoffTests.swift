import BCListener
import Testing

@Suite struct BackoffTests {
    typealias Backoff = BCListenerConfiguration.Backoff

    @Test func defaultsAreWhatAUserWouldPick() {
        let configuration = Sample.configuration()
        #expect(configuration.pingInterval == .seconds(30))
        #expect(configuration.connectTimeout == .seconds(10))
        #expect(configuration.backoff == Backoff(initialDelay: .seconds(1), multiplier: 2,
                                                 maximumDelay: .seconds(30), jitter: 0.2))
        #expect(configuration.maxAttempts == nil)
        #expect(configuration.stableAfter == .seconds(10))
        #expect(configuration.stopOnLiveEnd)
        #expect(configuration.decodingMode == .lenient)
        #expect(configuration.host == "online.mirrativ.com")
    }

    @Test(arguments: [(1, 1), (2, 2), (3, 4), (4, 8), (5, 16), (6, 30), (7, 30), (100, 30), (Int.max, 30)]
            as [(Int, Double)])
    func baseDelayDoublesUpToTheCap(_ retry: Int, _ seconds: Double) {
        #expect(Backoff().baseDelay(forRetry: retry) == .seconds(seconds))
    }

    @Test func aMultiplierOfOneKeepsTheDelayConstant() {
        let backoff = Backoff(initialDelay: .seconds(3), multiplier: 1)
        #expect((1...50).allSatisfy { backoff.baseDelay(forRetry: $0) == .seconds(3) })
    }

    @Test func anInitialDelayAboveTheCapIsCapped() {
        #expect(Backoff(initialDelay: .seconds(60)).baseDelay(forRetry: 1) == .seconds(30))
    }

    @Test(arguments: [0.0, 0.1, 0.2, 0.5, 1.0])
    func jitterStaysWithinItsBoundsForManyRetriesAndRandomValues(_ jitter: Double) {
        let backoff = Backoff(jitter: jitter)
        var generator = SplitMix64(seed: 42)
        let units = [0, 0.5, 1.0.nextDown] + (0..<2_000).map { _ in Double.random(in: 0..<1, using: &generator) }
        let cap = backoff.maximumDelay.seconds * (1 + jitter)
        for retry in 1...40 {
            let base = backoff.baseDelay(forRetry: retry).seconds
            for unit in units {
                let delay = backoff.delay(forRetry: retry, random: unit).seconds
                #expect(delay >= base * (1 - jitter) - 1e-9, "retry \(retry), unit \(unit)")
                #expect(delay <= base * (1 + jitter) + 1e-9, "retry \(retry), unit \(unit)")
                #expect(delay <= cap + 1e-9, "retry \(retry), unit \(unit)")
            }
        }
    }

    @Test func jitterSpansItsWholeRange() {
        let backoff = Backoff()
        #expect(abs(backoff.delay(forRetry: 4, random: 0).seconds - 6.4) < 1e-9)
        #expect(backoff.delay(forRetry: 4, random: 0.5) == .seconds(8))
        #expect(abs(backoff.delay(forRetry: 4, random: 1.0.nextDown).seconds - 9.6) < 1e-9)
    }

    @Test(arguments: [-1.0, 2.0])
    func outOfRangeRandomValuesAreClamped(_ unit: Double) {
        let delay = Backoff().delay(forRetry: 1, random: unit).seconds
        #expect(delay >= 0.8 && delay <= 1.2)
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
