import Metrics
import Synchronization

/// The counters a publishing process keeps (swift-metrics). Made after `MetricsSystem.bootstrap`, which binds
/// each metric to the backend when it is created: without a bootstrap (`listen --publish`) they cost nothing.
public final class FleetMetrics: Sendable {
    let livesFollowed = Counter(label: "bcstream_lives_followed_total")
    /// Follow requests terminated unread: not JSON, a key that is not a channel key, a URL that is not ws(s)://.
    let followRequestsRejected = Counter(label: "bcstream_follow_requests_rejected_total")
    let livesActive = Gauge(label: "bcstream_lives_active")
    let decodeErrors = Counter(label: "bcstream_decode_errors_total")
    let reconnects = Counter(label: "bcstream_nats_reconnects_total")
    let publishLatency = Metrics.Timer(label: "bcstream_publish_latency_seconds")
    let bufferDepth = Gauge(label: "bcstream_publish_buffer_depth")
    let unpublished = Counter(label: "bcstream_messages_unpublished_total")
    private let messages = Mutex<[String: Counter]>([:])

    /// The counters, bound to the metrics backend bootstrapped now (none: they cost nothing).
    public init() {}

    /// Counts a published message of `kind` (decode errors are also counted apart).
    func published(kind: String) {
        let counter = messages.withLock { counters in
            if let counter = counters[kind] { return counter }
            let counter = Counter(label: "bcstream_messages_total", dimensions: [("kind", kind)])
            counters[kind] = counter
            return counter
        }
        counter.increment()
        if kind == FleetMessage.errorKind { decodeErrors.increment() }
    }
}
