import Dispatch
import Foundation
import Metrics
import Prometheus
import Synchronization

/// Serves the process's swift-metrics counters in Prometheus text format at `GET /metrics` (anything else: 404),
/// on a thread of its own (docs/DESIGN.md, "The metrics port answers whatever other clients do"). Scrapers are not
/// trusted: every connection has `Limits.requestTimeout` for its whole request (at most `Limits.maxRequestBytes`)
/// and as long again for taking the answer, at most `Limits.maxConnections` are open (a new one past that closes
/// the oldest still waiting for its request), and a failed accept (EMFILE) closes the oldest waiting connections
/// and accepts again after a short pause instead of giving up the port. `MetricsConnections` decides all of that;
/// `MetricsServerLoop` is the non-blocking IO around it.
public final class MetricsServer: Sendable {
    /// What one scraper may take of the server.
    public struct Limits: Sendable {
        /// Connections open at once; one more closes the oldest still waiting for its request.
        public var maxConnections = 1024
        /// How long a connection has for its whole request, and as long again for taking the answer.
        public var requestTimeout: Duration = .seconds(5)
        /// The longest request read.
        public var maxRequestBytes = 8192
        /// The pause after a failed accept.
        public var acceptBackoff: Duration = .milliseconds(50)
        /// Connections still waiting for their request that an accept failed for want of descriptors closes.
        public var closedOnDescriptorShortage = 16

        /// The defaults.
        public init() {}
    }

    /// The port it listens on (the one picked, for port 0).
    public let port: Int
    private let loop: MetricsServerLoop
    private let finished = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)

    /// Makes the process's Prometheus registry and bootstraps swift-metrics with it (once per process).
    public static func bootstrapRegistry() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }

    /// Listens on `host:port` (`host` an IPv4 or IPv6 address; port 0: any free port, see `port`).
    public init(host: String, port: Int, registry: PrometheusCollectorRegistry, limits: Limits = Limits()) throws {
        let listener = try MetricsListener(host: host, port: port)
        let acceptErrors = registry.makeCounter(descriptor: MetricNameDescriptor(
            namespace: "bcstream", subsystem: "metrics", metricName: "accept_errors", unitName: "total",
            helpText: "Accepts of the metrics port that failed (EMFILE: out of file descriptors)"))
        self.port = listener.port
        loop = try MetricsServerLoop(listener: listener, registry: registry, limits: limits,
                                     acceptErrors: acceptErrors)
        let loop = loop
        let finished = finished
        let thread = Thread {
            loop.run()
            finished.signal()
        }
        thread.name = "bcstream-metrics"
        thread.start()
    }

    /// How many connections are open now, and how many were accepted in all (the tests wait for a flood to be
    /// taken in).
    func connectionCounts() async throws -> (open: Int, accepted: Int) {
        loop.counts
    }

    /// Stops serving: closes the port and every connection, and ends the server's thread. Idempotent.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        loop.wake(stopping: true)
        finished.wait()
    }

    deinit { stop() }
}
