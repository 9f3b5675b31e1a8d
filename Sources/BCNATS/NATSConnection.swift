import CLibNATS
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// How to reach NATS and how hard to hold on to it.
public struct NATSConnectionOptions: Sendable {
    /// One or more `nats://host:port` URLs of the cluster; nats.c picks one and fails over to the others (and to
    /// the servers the cluster announces).
    public var servers: [String]
    /// The client name the server shows (`nats-server`'s connz).
    public var name = "bcstream"
    /// Pause between two reconnect attempts.
    public var reconnectWait: Duration = .milliseconds(250)
    /// How long one TCP connect and the INFO/CONNECT exchange may take.
    public var connectTimeout: Duration = .seconds(2)
    /// How long a JetStream request (stream info, stream creation, a publish's ack) waits for its answer.
    public var requestTimeout: Duration = .seconds(5)
    /// Bytes nats.c keeps for publishes made while reconnecting, sent once back (nats.c's own bounded buffer).
    public var reconnectBufferBytes = 8 << 20

    /// Options for these servers (`nats://127.0.0.1:4222`), the other settings at their defaults.
    public init(servers: [String]) {
        self.servers = servers
    }
}

/// What the connection reports, in the order nats.c's callback thread delivers it.
public enum NATSConnectionEvent: Sendable, Equatable {
    /// The first connection, made after `connect` returned (the server was not reachable at first).
    case connected
    /// The link to the server was lost; nats.c reconnects on its own (also said once by `close()`).
    case disconnected
    /// A link is back (maybe to another server of the cluster).
    case reconnected
    /// The connection is closed for good (`close()`); nothing follows.
    case closed
}

/// A connection to NATS with JetStream, thread-safe and shareable.
///
/// Threading: nats.c runs its own threads (a reader and a flusher per connection, a reconnect thread while it
/// reconnects, and one library-wide thread that calls the connection callbacks). `natsConnection` and `jsCtx`
/// are documented thread-safe, so any task may use one `NATSConnection`. Calls that wait for the server run on
/// `BlockingCall`'s threads, never on Swift's cooperative pool; the callbacks only yield into `events`.
///
/// The connection never gives up on its own: it reconnects every `reconnectWait` for as long as it lives, and
/// `connect` succeeds even when no server answers yet (the first connection is then reported by `.connected`).
public final class NATSConnection: Sendable {
    /// The connection's events. Bounded: the newest 256 are kept for a consumer that is behind.
    public let events: AsyncStream<NATSConnectionEvent>
    let handles: Handles
    private let closed = Mutex(false)

    /// nats.c's connection and JetStream context.
    ///
    /// `@unchecked Sendable`: both pointers are set once in `connect` and never changed; nats.c documents
    /// `natsConnection` and `jsCtx` as safe to use from any thread, and they are destroyed only in `deinit`, when
    /// no other reference to the connection remains.
    struct Handles: @unchecked Sendable {
        let connection: OpaquePointer
        let jetStream: OpaquePointer
    }

    private init(handles: Handles, events: AsyncStream<NATSConnectionEvent>) {
        self.handles = handles
        self.events = events
    }

    /// Connects (or starts connecting, when no server answers yet) and opens the JetStream context.
    public static func connect(_ options: NATSConnectionOptions) async throws(NATSError) -> NATSConnection {
        guard !options.servers.isEmpty else {
            throw NATSError(status: NATS_ADDRESS_MISSING.rawValue, text: "no NATS server URL given")
        }
        let (events, continuation) = AsyncStream.makeStream(of: NATSConnectionEvent.self,
                                                            bufferingPolicy: .bufferingNewest(256))
        let sink = EventSink(continuation: continuation)
        do throws(NATSError) {
            let handles = try await BlockingCall.run { () throws(NATSError) -> Handles in
                try open(options, sink: sink)
            }
            return NATSConnection(handles: handles, events: events)
        } catch {
            continuation.finish()
            throw error
        }
    }

    /// Blocks: creates the options, connects, opens JetStream. On failure nothing is left behind.
    private static func open(_ options: NATSConnectionOptions, sink: EventSink) throws(NATSError) -> Handles {
        var opts: OpaquePointer?
        try check(natsOptions_Create(&opts), "creating NATS options")
        defer { natsOptions_Destroy(opts) }
        var servers = options.servers.map { strdup($0) }
        defer { for server in servers { free(server) } }
        let serverCount = Int32(servers.count)
        let set = servers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                natsOptions_SetServers(opts, $0, serverCount)
            }
        }
        try check(set, "setting the NATS servers \(options.servers.joined(separator: ","))")
        try check(natsOptions_SetName(opts, options.name), "naming the connection")
        try check(natsOptions_SetMaxReconnect(opts, -1), "setting unlimited reconnects")
        try check(natsOptions_SetReconnectWait(opts, options.reconnectWait.milliseconds), "setting the reconnect wait")
        try check(natsOptions_SetTimeout(opts, options.connectTimeout.milliseconds), "setting the connect timeout")
        try check(natsOptions_SetReconnectBufSize(opts, Int32(clamping: options.reconnectBufferBytes)),
                  "setting the reconnect buffer")
        // The sink is retained for the C callbacks until the closed callback, which nats.c calls exactly once
        // when a connection it created closes (from `close()` or `deinit`); if no connection is created, it is
        // released below.
        let closure = Unmanaged.passRetained(sink).toOpaque()
        try check(natsOptions_SetRetryOnFailedConnect(opts, true, { _, closure in
            EventSink.from(closure).yield(.connected)
        }, closure), "enabling connection retries")
        try check(natsOptions_SetDisconnectedCB(opts, { _, closure in
            EventSink.from(closure).yield(.disconnected)
        }, closure), "setting the disconnected callback")
        try check(natsOptions_SetReconnectedCB(opts, { _, closure in
            EventSink.from(closure).yield(.reconnected)
        }, closure), "setting the reconnected callback")
        try check(natsOptions_SetClosedCB(opts, { _, closure in
            guard let closure else { return }
            let sink = Unmanaged<EventSink>.fromOpaque(closure)
            sink.takeUnretainedValue().finish()
            sink.release()
        }, closure), "setting the closed callback")

        var connection: OpaquePointer?
        let status = natsConnection_Connect(&connection, opts)
        guard status == NATS_OK || status == NATS_NOT_YET_CONNECTED, let connection else {
            let error = NATSError(status, doing: "connecting to \(options.servers.joined(separator: ","))")
            Unmanaged<EventSink>.fromOpaque(closure).release()
            throw error
        }
        var jsOptions = jsOptions()
        jsOptions_Init(&jsOptions)
        jsOptions.Wait = options.requestTimeout.milliseconds
        var jetStream: OpaquePointer?
        let opened = natsConnection_JetStream(&jetStream, connection, &jsOptions)
        guard opened == NATS_OK, let jetStream else {
            let error = NATSError(opened, doing: "opening the JetStream context")
            natsConnection_Destroy(connection)  // closes it: the closed callback releases the sink
            throw error
        }
        return Handles(connection: connection, jetStream: jetStream)
    }

    /// Whether a link to a server is up now.
    public var isConnected: Bool {
        natsConnection_Status(handles.connection) == NATS_CONN_STATUS_CONNECTED
    }

    /// Closes the connection (publishes nats.c still holds are flushed first, for up to its timeout); `events`
    /// ends with `.closed`. Blocks its thread briefly, so it runs on `BlockingCall`'s.
    public func close() async {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        let handles = handles
        try? await BlockingCall.run { () throws(NATSError) in
            natsConnection_Close(handles.connection)
        }
    }

    deinit {
        jsCtx_Destroy(handles.jetStream)
        natsConnection_Destroy(handles.connection)
    }
}

/// Where nats.c's callbacks (on its callback thread) put the connection's events.
final class EventSink: Sendable {
    private let continuation: AsyncStream<NATSConnectionEvent>.Continuation

    init(continuation: AsyncStream<NATSConnectionEvent>.Continuation) {
        self.continuation = continuation
    }

    static func from(_ closure: UnsafeMutableRawPointer?) -> EventSink {
        Unmanaged<EventSink>.fromOpaque(closure!).takeUnretainedValue()
    }

    func yield(_ event: NATSConnectionEvent) { continuation.yield(event) }

    func finish() {
        continuation.yield(.closed)
        continuation.finish()
    }
}

extension Duration {
    /// Whole milliseconds, as nats.c takes timeouts.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// Whole nanoseconds, as JetStream's configurations take durations.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
