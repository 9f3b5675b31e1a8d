import Foundation
import Metrics
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus

/// Serves the process's swift-metrics counters in Prometheus text format at `GET /metrics` (anything else: 404),
/// on a SwiftNIO event loop of its own (docs/DESIGN.md, "The metrics port answers whatever other clients do").
/// Scrapers are not trusted: every connection has `Limits.requestTimeout` for its whole request (at most
/// `Limits.maxRequestBytes`) and as long again for taking the answer, at most `Limits.maxConnections` are open
/// (a new one past that closes the oldest still waiting for its request), and a failed accept (EMFILE) closes
/// the oldest waiting connections and accepts again after a short pause instead of giving up the port.
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
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let sweep: RepeatedTask
    private let table: NIOLoopBoundBox<MetricsConnectionTable>

    /// Makes the process's Prometheus registry and bootstraps swift-metrics with it (once per process).
    public static func bootstrapRegistry() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }

    /// Listens on `host:port` (port 0: any free port, see `port`).
    public init(host: String, port: Int, registry: PrometheusCollectorRegistry, limits: Limits = Limits()) throws {
        let address: SocketAddress
        do {
            address = try SocketAddress(ipAddress: host, port: port)
        } catch {
            throw FleetFailure("--metrics-host takes an IP address, not \(host)")
        }
        // One thread: every connection and the table of them live on that one event loop.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let table = NIOLoopBoundBox.makeBoxSendingValue(MetricsConnectionTable(limits: limits), eventLoop: loop)
        let acceptErrors = registry.makeCounter(descriptor: MetricNameDescriptor(
            namespace: "bcstream", subsystem: "metrics", metricName: "accept_errors", unitName: "total",
            helpText: "Accepts of the metrics port that failed (EMFILE: out of file descriptors)"))
        let backoff = TimeAmount(limits.acceptBackoff)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.maxMessagesPerRead, value: 64)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // ServerBootstrap.bind(to:) adds no backoff of its own: without one, EMFILE makes the loop
                    // spin on accept.
                    try channel.pipeline.syncOperations.addHandlers(
                        AcceptBackoffHandler(shouldForwardIOErrorCaught: true) { _ in backoff },
                        MetricsAcceptFailureHandler(table: table, failures: acceptErrors)
                    )
                }
            }
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let id = table.value.open(channel)
                    try channel.pipeline.syncOperations.addHandler(RequestSizeLimit(limit: limits.maxRequestBytes))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(
                        MetricsRequestHandler(id: id, table: table, registry: registry))
                }
            }
        let channel: any Channel
        do {
            channel = try bootstrap.bind(to: address).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw FleetFailure("cannot serve metrics on \(host):\(port): \(error)")
        }
        self.group = group
        self.channel = channel
        self.table = table
        self.port = channel.localAddress?.port ?? port
        self.sweep = loop.scheduleRepeatedTask(initialDelay: .milliseconds(100), delay: .milliseconds(100)) { _ in
            table.value.sweep()
        }
    }

    /// How many connections are open now, and how many were accepted in all (the tests wait for a flood to be
    /// taken in).
    func connectionCounts() async throws -> (open: Int, accepted: Int) {
        let table = table
        return try await table.eventLoop.submit { (table.value.count, table.value.accepted) }.get()
    }

    /// Stops serving: closes the port and every connection, and ends the event loop's thread.
    public func stop() {
        sweep.cancel()
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

/// The open connections of a `MetricsServer`, on its event loop only (held in a `NIOLoopBoundBox`): the pure
/// `MetricsConnections` decides, this closes the channels it names.
final class MetricsConnectionTable {
    private let requestTimeout: TimeAmount
    private let closedOnDescriptorShortage: Int
    private var connections: MetricsConnections<UInt64, NIODeadline>
    private var channels: [UInt64: any Channel] = [:]
    private var nextID: UInt64 = 0
    /// Connections accepted since the server started.
    var accepted: Int { Int(nextID) }

    init(limits: MetricsServer.Limits) {
        requestTimeout = TimeAmount(limits.requestTimeout)
        closedOnDescriptorShortage = limits.closedOnDescriptorShortage
        connections = MetricsConnections(capacity: limits.maxConnections)
    }

    func open(_ channel: any Channel) -> UInt64 {
        nextID += 1
        channels[nextID] = channel
        if let evicted = connections.opened(nextID, deadline: .now() + requestTimeout) {
            close(evicted)
        }
        return nextID
    }

    func requestArrived(_ id: UInt64) {
        connections.requestArrived(id, answerBy: .now() + requestTimeout)
    }

    func closed(_ id: UInt64) {
        connections.closed(id)
        channels[id] = nil
    }

    var count: Int { connections.count }

    /// Closes the oldest connections still waiting for their request: descriptors for the next accepts.
    func makeRoom() {
        for _ in 0..<closedOnDescriptorShortage {
            guard let id = connections.evictOldestAwaiting() else { return }
            close(id)
        }
    }

    func sweep() {
        for id in connections.expired(at: .now()) { close(id) }
    }

    private func close(_ id: UInt64) {
        guard let channel = channels.removeValue(forKey: id) else { return }
        channel.close(promise: nil)
    }
}

/// On the listening channel, after the `AcceptBackoffHandler`: an accept that failed for want of descriptors
/// (EMFILE, ENFILE) closes the oldest connections still waiting for their request, so the accepts after the pause
/// find descriptors. Other accept errors only pause. Each is counted (`bcstream_metrics_accept_errors_total`).
final class MetricsAcceptFailureHandler: ChannelInboundHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel
    private let table: NIOLoopBoundBox<MetricsConnectionTable>
    private let failures: Prometheus.Counter

    init(table: NIOLoopBoundBox<MetricsConnectionTable>, failures: Prometheus.Counter) {
        self.table = table
        self.failures = failures
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failures.increment()
        if let error = error as? IOError, error.errnoCode == EMFILE || error.errnoCode == ENFILE {
            table.value.makeRoom()
        }
    }
}

/// Closes a connection whose request grows past `limit` bytes (a GET has no body; the decoder behind would
/// otherwise buffer headers up to its own, larger, limit).
final class RequestSizeLimit: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    private let limit: Int
    private var received = 0

    init(limit: Int) { self.limit = limit }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        received += unwrapInboundIn(data).readableBytes
        if received > limit {
            context.close(promise: nil)
            return
        }
        context.fireChannelRead(data)
    }
}

/// Answers one request per connection, then closes it.
final class MetricsRequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    private let id: UInt64
    private let table: NIOLoopBoundBox<MetricsConnectionTable>
    private let registry: PrometheusCollectorRegistry
    private var head: HTTPRequestHead?

    init(id: UInt64, table: NIOLoopBoundBox<MetricsConnectionTable>, registry: PrometheusCollectorRegistry) {
        self.id = id
        self.table = table
        self.registry = registry
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            self.head = nil
            table.value.requestArrived(id)
            answer(head, context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        table.value.closed(id)
        context.fireChannelInactive()
    }

    private func answer(_ request: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = request.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var body: [UInt8]
        let status: HTTPResponseStatus
        if request.method == .GET, path == "/metrics" {
            body = []
            registry.emit(into: &body)
            status = .ok
        } else {
            body = Array("only GET /metrics is served here\n".utf8)
            status = .notFound
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; version=0.0.4; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
                      promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
