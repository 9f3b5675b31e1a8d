#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BCMessages

/// How a listener subscribes to one bcsvr channel, keeps the link alive and reconnects. Only `key` and `url`
/// have no default: both come from the live-info answer (`bcsvr_key`, `wss://<broadcast_host>/`).
public struct BCListenerConfiguration: Hashable, Sendable {
    /// The channel to subscribe to: the live's `bcsvr_key`, like `118f91f:UdoBre1M`.
    public var key: ChannelKey
    /// The bcsvr WebSocket endpoint, `wss://<broadcast_host>/` (path `/`, no query).
    public var url: URL
    /// How often to send the bcsvr `PING` (the official app: 30 s). A link that has not answered the previous
    /// `PING` with `ACK` when the next is due is dead: it is closed and reconnected. Must be positive.
    public var pingInterval: Duration
    /// How long one connection attempt (DNS, TCP, TLS and the WebSocket handshake) may take. Must be positive.
    public var connectTimeout: Duration
    /// The delays between connection attempts.
    public var backoff: Backoff
    /// How many connection attempts in a row may fail before the listener gives up; nil retries forever. A
    /// connection that closes before `stableAfter` counts as failed. At least 1.
    public var maxAttempts: Int?
    /// A connection that stayed open this long was a success: after it, attempts are counted from 1 again and
    /// the delay starts over from `backoff.initialDelay`.
    public var stableAfter: Duration
    /// Stop, without reconnecting, when the live ends (t=8, or t=123 on newer servers). Turn off to keep
    /// listening to a channel whose live may start again.
    public var stopOnLiveEnd: Bool
    /// How `MSG` JSON is decoded: `.lenient` in production, `.strict` to audit the model against the wire.
    public var decodingMode: BCMessageDecoder.Mode
    /// Flow control: how many received messages may wait for the consumer before the listener stops reading
    /// the socket (TCP then pushes back on the server); reading resumes when half of them are taken.
    public var maxHeldMessages: Int
    /// Flow control: how many bytes of received frames may wait for the consumer, likewise.
    public var maxHeldBytes: Int

    /// A configuration for the channel `key` at `url`; every other setting has the default described on its
    /// property.
    public init(
        key: ChannelKey,
        url: URL,
        pingInterval: Duration = .seconds(30),
        connectTimeout: Duration = .seconds(10),
        backoff: Backoff = Backoff(),
        maxAttempts: Int? = nil,
        stableAfter: Duration = .seconds(10),
        stopOnLiveEnd: Bool = true,
        decodingMode: BCMessageDecoder.Mode = .lenient,
        maxHeldMessages: Int = 1_024,
        maxHeldBytes: Int = 4 << 20
    ) {
        self.key = key
        self.url = url
        self.pingInterval = pingInterval
        self.connectTimeout = connectTimeout
        self.backoff = backoff
        self.maxAttempts = maxAttempts
        self.stableAfter = stableAfter
        self.stopOnLiveEnd = stopOnLiveEnd
        self.decodingMode = decodingMode
        self.maxHeldMessages = maxHeldMessages
        self.maxHeldBytes = maxHeldBytes
    }

    /// The server for messages to a person: its host name (`online.mirrativ.com`), with the port when the URL
    /// names one (`127.0.0.1:8080`); the whole URL when it has no host.
    public var host: String {
        guard let host = url.host else { return url.absoluteString }
        return url.port.map { "\(host):\($0)" } ?? host
    }
}

extension BCListenerConfiguration {
    /// Exponential back-off with a cap and jitter: the delay before retry `n` is
    /// `min(initialDelay × multiplierⁿ⁻¹, maximumDelay)`, then multiplied by a random factor in
    /// `[1 - jitter, 1 + jitter)` so that many clients dropped at once do not come back at once.
    public struct Backoff: Hashable, Sendable {
        /// The delay before the first retry.
        public var initialDelay: Duration
        /// How much each retry's delay grows over the previous one; 1 keeps it constant. At least 1.
        public var multiplier: Double
        /// The cap on the delay before jitter; with jitter a delay may exceed it by up to `jitter` of it.
        public var maximumDelay: Duration
        /// The random spread, as a fraction of the delay: 0.2 makes a 10 s delay anything in [8 s, 12 s).
        /// Between 0 and 1.
        public var jitter: Double

        /// A back-off from 1 s, doubling up to 30 s, with ±20 % jitter unless told otherwise.
        public init(initialDelay: Duration = .seconds(1), multiplier: Double = 2,
                    maximumDelay: Duration = .seconds(30), jitter: Double = 0.2) {
            self.initialDelay = initialDelay
            self.multiplier = multiplier
            self.maximumDelay = maximumDelay
            self.jitter = jitter
        }

        /// The delay before retry `retry` (1 for the first) without jitter: the exponential curve, capped.
        public func baseDelay(forRetry retry: Int) -> Duration {
            let cap = maximumDelay.seconds
            var delay = min(initialDelay.seconds, cap)
            // A loop, not pow: it stops at the cap, so any retry number is cheap and nothing overflows.
            if multiplier > 1 {
                var step = 1
                while step < retry && delay < cap {
                    delay = min(delay * multiplier, cap)
                    step += 1
                }
            }
            return .seconds(max(delay, 0))
        }

        /// The delay before retry `retry` (1 for the first), jittered by `unit`, a random number in `0..<1`:
        /// 0 gives the shortest delay, 0.5 the base delay, values towards 1 the longest.
        public func delay(forRetry retry: Int, random unit: Double) -> Duration {
            let jitter = min(max(jitter, 0), 1)
            let unit = min(max(unit, 0), 1)
            return baseDelay(forRetry: retry) * (1 + jitter * (2 * unit - 1))
        }
    }
}
