/// When `--wait` asks the profile API again: every `interval`, give or take `jitter` (a fraction, so that many
/// bots started together do not poll in step), and after failures in a row twice as long each time, up to
/// `maxBackOff` (a service that is down or rate-limits is not hammered).
public struct PollSchedule: Hashable, Sendable {
    /// The wait between polls while they succeed, before jitter.
    public var interval: Duration
    /// 0.2 spreads each wait over ±20 % of its length.
    public var jitter: Double
    /// The longest wait after failures in a row, before jitter (never less than `interval`).
    public var maxBackOff: Duration

    /// Polls every 60 s, ±20 %, backing off to 15 min, unless told otherwise; `jitter` is clamped to 0...0.9.
    public init(interval: Duration = .seconds(60), jitter: Double = 0.2, maxBackOff: Duration = .seconds(900)) {
        self.interval = interval
        self.jitter = min(max(jitter, 0), 0.9)
        self.maxBackOff = maxBackOff
    }

    /// The wait before the next poll after `failures` failed polls in a row (0 after a good one). `unit` is a
    /// random number in 0..<1 (injected, so tests are exact).
    public func delay(afterFailures failures: Int, unit: Double) -> Duration {
        let base = failures == 0 ? interval : min(interval * (1 << min(failures, 20)), max(maxBackOff, interval))
        let factor = 1 + jitter * (2 * min(max(unit, 0), 1) - 1)
        return base * factor
    }

    /// The wait before the next poll after `failures` failed polls in a row, with system-random jitter.
    public func delay(afterFailures failures: Int) -> Duration {
        delay(afterFailures: failures, unit: Double.random(in: 0..<1))
    }
}
