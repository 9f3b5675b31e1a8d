/// Several `WebSocketLoop`s for many connections: connection `i` goes to loop `i / connectionsPerLoop`.
///
/// Why not one loop: libwebsockets 4.1 keeps each context's timers (every connection's connect timeout and
/// keepalive) in one list sorted by deadline, and inserts by walking it, so a context with n connections spends
/// time in n for each new timer: starting n connections on one loop costs n². Past a few thousand connections
/// that is most of the start-up (10,000 subscriptions took 20 s). A pool bounds each list at
/// `connectionsPerLoop`, so start-up grows linearly with the connections, and the loops' threads serve them on
/// as many cores as there are.
///
/// The loops are started one after the other, each context created before the next is asked for
/// (`started(connections:…)`). (lws 4.1.6 changes process-wide OpenSSL state when it creates a context, which
/// fails an lws TLS handshake in flight elsewhere, see `ContextCreation`; a loop's own `wss://` links no longer use
/// lws' TLS, but an `HTTPFetcher`'s requests do.)
public final class WebSocketLoopPool: Sendable {
    /// How many connections share one loop by default: small enough that a loop's sorted timer list stays short
    /// (inserting walks it), large enough that 10,000 channels take 20 threads.
    public static let defaultConnectionsPerLoop = 500

    /// The loops, in the order connections are spread over them; at least one.
    public let loops: [WebSocketLoop]
    /// How many connections go to each loop before the next one takes over; at least 1.
    public let connectionsPerLoop: Int
    /// The loops this pool made, which `shutdown()` shuts down (a `first` loop given is its owner's).
    private let made: [WebSocketLoop]

    private init(loops: [WebSocketLoop], made: [WebSocketLoop], connectionsPerLoop: Int) {
        self.loops = loops
        self.made = made
        self.connectionsPerLoop = connectionsPerLoop
    }

    /// Loops enough for `connections` connections (at least one), each running before the call returns. `first`,
    /// when given, is the first loop (one the caller already has); the pool makes the others.
    public static func started(connections: Int, connectionsPerLoop: Int = defaultConnectionsPerLoop,
                               name: String, first: WebSocketLoop? = nil) async -> WebSocketLoopPool {
        let perLoop = max(1, connectionsPerLoop)
        let count = max(1, (connections + perLoop - 1) / perLoop)
        if let first { _ = await first.core.waitUntilStarted() }
        var made: [WebSocketLoop] = []
        for index in (first == nil ? 0 : 1)..<count {
            let loop = WebSocketLoop(name: count == 1 ? name : "\(name).\(index)")
            _ = await loop.core.waitUntilStarted()
            made.append(loop)
        }
        return WebSocketLoopPool(loops: (first.map { [$0] } ?? []) + made, made: made, connectionsPerLoop: perLoop)
    }

    /// The loop of the `index`th connection.
    public func loop(for index: Int) -> WebSocketLoop {
        loops[min(loops.count - 1, max(0, index) / connectionsPerLoop)]
    }

    /// Shuts the loops this pool made down (closing what is still open), all at once.
    public func shutdown() async {
        await withTaskGroup(of: Void.self) { group in
            for loop in made { group.addTask { await loop.shutdown() } }
        }
    }
}
