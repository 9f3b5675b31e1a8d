import ArgumentParser
import BCConsole
import BCFleet
import BCListener
import BCMessages
import BCWebSocket
import Foundation

struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Follow lives queued on NATS JetStream and publish their messages; run several.",
        usage: "bcstream worker --nats <nats> [<options>]",
        discussion: """
            Takes lives from the work-queue stream BCSTREAM_FOLLOW (subject bcstream.follow, payload \
            {"url":"ws(s)://…","key":"…"}; `bcstream follow` queues one), follows up to --max-lives at \
            once on one WebSocket loop, and publishes every message and decode error to stream \
            BCSTREAM on bcstream.msg.<channel>.<kind>, as `listen --publish` does. The streams are \
            created if missing.

            A claimed live is kept with an in-progress ack while it is followed, and acked when it \
            ends (t=8, t=123) or fails for good; the reason, or `ended`, goes to stream \
            BCSTREAM_STATUS on bcstream.status.<channel>. A worker that dies (SIGKILL, a lost machine) \
            loses its claims after --claim-timeout seconds and another worker takes them over \
            (status `resumed`). \
            SIGTERM or Ctrl-C hands every claim back at once (nak), publishes what waits (for at most \
            10 s; what NATS did not take is counted on stderr, exit 1), and exits. A worker that takes \
            over a live queued with its id (`follow --live`) fetches its recent comments from \
            --api-base and stores those of the last 100 s it may have missed, marked backlog; a \
            comment is stored once however it came (its Nats-Msg-Id is its comment id).

            Deployment: run N workers on any machines against one NATS cluster (nats-server -js with \
            clustering; pass every server, comma-separated, to --nats, and --replicas 3 so the \
            streams survive a node). They share the queue: add workers to follow more lives. Read BCSTREAM from any language with a NATS client (the \
            README has a five-line Python consumer). --metrics-port serves Prometheus counters at \
            /metrics: lives followed and active, messages per kind, decode errors, NATS \
            reconnects, publish latency, buffer depth.

            Examples:
              bcstream worker --nats nats://127.0.0.1:4222 --max-lives 500
              bcstream worker --nats nats://a:4222,nats://b:4222,nats://c:4222 \\
                  --metrics-port 9464
            """
    )

    @OptionGroup var servers: NATSOptions

    @Option(help: "Copies of each stream created when missing (3 on a three-node cluster).")
    var replicas = 1

    @Option(help: "Lives followed at once.")
    var maxLives = 100

    @Option(help: "Seconds a claim is kept without news before another worker takes the live.")
    var claimTimeout: Double = 30

    @Option(help: "A live fails for good after this many failed connection attempts in a row.")
    var maxAttempts = 20

    @OptionGroup var keepalive: KeepaliveOptions

    @OptionGroup var tls: TLSOptions

    @Option(help: "Messages that may wait for NATS; when full, reading the lives pauses.")
    var publishBuffer = PublishBuffer.defaultCapacity

    @Option(help: "Serve Prometheus metrics on this port (GET /metrics); 0 picks one.")
    var metricsPort: Int?

    @Option(help: "Address the metrics are served on.")
    var metricsHost = "127.0.0.1"

    @Option(help: "The API a taken-over live's recent comments are fetched from.")
    var apiBase = LiveDirectory.defaultAPIBase.absoluteString

    @Option(help: "Seconds an API request may take.")
    var apiTimeout: Double = 10

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        try NATSServers.validate(buffer: publishBuffer)
        guard let api = URL(string: apiBase), ["http", "https"].contains(api.scheme ?? ""), api.host != nil else {
            throw ValidationError("--api-base must be an http:// or https:// URL, not \(TerminalText.excerpt(apiBase)).")
        }
        if apiTimeout <= 0 { throw ValidationError("--api-timeout must be more than 0 seconds.") }
        if maxLives < 1 { throw ValidationError("--max-lives must be at least 1.") }
        if claimTimeout < 1 { throw ValidationError("--claim-timeout must be at least 1 second.") }
        if let metricsPort, !(0...65535).contains(metricsPort) {
            throw ValidationError("--metrics-port must be between 0 and 65535.")
        }
        if maxAttempts < 1 { throw ValidationError("--max-attempts must be at least 1.") }
        if !(1...5).contains(replicas) { throw ValidationError("--replicas must be between 1 and 5.") }
    }

    func run() async throws {
        let logger = logging.logger
        // As `listen` does: a socket per live, the metrics connections, and a margin (NATS, files, DNS).
        let metricsLimits = MetricsServer.Limits()
        DescriptorLimit.raise(toward: maxLives + (metricsPort == nil ? 0 : metricsLimits.maxConnections) + 64)
        let metricsServer = try metricsPort.map {
            try MetricsServer(host: metricsHost, port: $0, registry: MetricsServer.bootstrapRegistry(),
                              limits: metricsLimits)
        }
        if let metricsServer {
            logger.info("metrics on http://\(metricsHost):\(metricsServer.port)/metrics")
        }
        // After the bootstrap: the counters bind to the Prometheus registry when they are made.
        let metrics = FleetMetrics()
        let publisher = try await NATSServers.publisher(servers.nats, capacity: publishBuffer, metrics: metrics,
                                                        replicas: replicas, logger: logger)
        let loop = WebSocketLoop(name: "bcstream.worker")
        var settings = FleetWorker.Settings()
        settings.maxLives = maxLives
        settings.claimTimeout = .milliseconds(Int64(claimTimeout * 1000))
        settings.maxAttempts = maxAttempts
        settings.pingInterval = keepalive.ping
        settings.connectTimeout = keepalive.connect
        settings.webSocket.tls = tls.configuration
        settings.replicas = replicas
        let directory = LiveDirectory(apiBase: URL(string: apiBase) ?? LiveDirectory.defaultAPIBase,
                                      tls: tls.configuration, timeout: .milliseconds(Int64(apiTimeout * 1000)))
        settings.backlog = { liveID in
            do throws(LiveDirectoryError) {
                return .success(try await directory.backlog(liveID: liveID))
            } catch {
                return .failure(error)
            }
        }
        let worker = FleetWorker(settings: settings, publisher: publisher, loop: loop, maker: FleetMessageMaker(),
                                 logger: logger)
        _ = try? await cancellingOnInterrupt { await worker.run() }
        await loop.shutdown()
        let unpublished = await NATSServers.finish(publisher, logger: logger)
        metricsServer?.stop()
        if unpublished > 0 { throw ExitCode(1) }
    }
}

struct FollowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow",
        abstract: "Queue lives for `bcstream worker` on NATS JetStream.",
        usage: "bcstream follow --nats <nats> <url> --key <key> ... [<options>]",
        discussion: """
            Publishes {"url":…,"key":…} (and "live":… with --live) for each --key to the work-queue \
            stream BCSTREAM_FOLLOW (subject bcstream.follow; created if missing) and waits for \
            JetStream's ack. One worker takes each live.

            Example:
              bcstream follow --nats nats://127.0.0.1:4222 wss://online.example.com/ \\
                  --key 118f91f:UdoBre1M
            """
    )

    @OptionGroup var servers: NATSOptions

    @Argument(help: "The bcsvr WebSocket endpoint, ws:// or wss://.")
    var url: String

    @Option(name: .customLong("key"), help: "A channel key to follow. Repeat for several lives.")
    var keys: [String] = []

    @Option(name: .customLong("live"), help: ArgumentHelp(
        "The live's id on the API, one for each --key, in the same order.",
        discussion: "A worker that takes the live over from one that died fetches its recent comments with it and stores those it missed."))
    var lives: [String] = []

    @Option(help: "Copies of the queue's stream if it is created here (3 on a three-node cluster).")
    var replicas = 1

    func validate() throws {
        if keys.isEmpty { throw ValidationError("Pass at least one --key.") }
        if !lives.isEmpty, lives.count != keys.count {
            throw ValidationError("Pass one --live for each --key (\(keys.count) keys, \(lives.count) lives), or none.")
        }
        if !(1...5).contains(replicas) { throw ValidationError("--replicas must be between 1 and 5.") }
        for request in try requests() {
            if let problem = request.problem { throw ValidationError(TerminalText.escaped(problem)) }
        }
    }

    /// The `--key` values as channel keys; a bad one is refused, escaped, before anything is queued.
    private func channelKeys() throws(ValidationError) -> [ChannelKey] {
        do {
            return try keys.map { text throws(InvalidChannelKey) in try ChannelKey(text, from: "--key") }
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The requests to queue, a key with its live id where given.
    private func requests() throws(ValidationError) -> [FollowRequest] {
        let keys = try channelKeys()
        return keys.indices.map { FollowRequest(url: url, key: keys[$0], live: lives.isEmpty ? nil : lives[$0]) }
    }

    func run() async throws {
        let connection = try await NATSServers.connect(servers.nats)
        do {
            try await connection.ensureStream(FleetSubjects.replicated(FleetSubjects.follow, replicas))
            for request in try requests() {
                let ack = try await connection.publish(request.json, to: FleetSubjects.followSubject)
                writeLine("queued \(request.key) (\(ack.stream) #\(ack.sequence))")
            }
        } catch {
            await connection.close()
            throw CommandFailure("cannot queue on NATS at \(servers.nats): \(error)")
        }
        await connection.close()
    }
}
