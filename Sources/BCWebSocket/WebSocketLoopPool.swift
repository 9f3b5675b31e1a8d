/// Several `WebSocketLoop`s for many connections: connection `i` goes to loop `i / connectionsPerLoop`.
///
/// Why not one loop: libwebsockets 4.1 keeps each context's timers (every connection's connect timeout and
/// keepalive) in one list sorted by deadline, and inserts by walking it, so a context with n connections spends
/// time in n for each new timer: starting n connections on one loop costs n². Past a few thousand connections
/// that is most of the start-up (10,000 subscriptions took 20 s). A pool bounds each list at
/// `connectionsPerLoop`, so start-up grows linearly with the connections, and the loops' threads serve them on
/// as many cores as there are.
public final class WebSocketLoopPool: Sendable {
    /// How many connections share one loop by default: small enough that a loop's sorted timer list stays short
    /// (inserting walks it), large enough that 10,000 channels take 20 threads.
    public static let defaultConnectionsPerLoop = 500

    public let loops: [WebSocketLoop]
    public let connectionsPerLoop: Int
    /// The loops this pool made, which `shutdown()` shuts down (a `first` loop given is its owner's).
    private let made: [WebSocketLoop]

    /// Loops enough for `connections` connections (at least one). `first`, when given, is the first loop (one the
    /// caller already has); the pool makes the others.
    public init(connections: Int, connectionsPerLoop: Int = defaultConnectionsPerLoop, name: String,
                first: WebSocketLoop? = nil) {
        let perLoop = max(1, connectionsPerLoop)
        let count = max(1, (connections + perLoop - 1) / perLoop)
        self.connectionsPerLoop = perLoop
        let made = (first == nil ? 0 : 1)..<count
        self.made = made.map { WebSocketLoop(name: count == 1 ? name : "\(name).\($0)") }
        loops = (first.map { [$0] } ?? []) + self.made
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
