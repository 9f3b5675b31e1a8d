/// A WebSocket server on its own lws context and service thread (one listening vhost whose sockets lws only
/// accepts and moves bytes for: the upgrade, frames, permessage-deflate and TLS are this module's), for the
/// replay tool and tests.
///
/// Everything is asynchronous except startup: `init` returns once the socket listens, so `port`
/// is final. Sends and closes are queued for the service thread; client activity arrives on
/// `events`. Plain `ws`, or `wss` with `WebSocketServerConfiguration.tls`.
public final class WebSocketServer: Sendable {
    /// Why the server did not start.
    public struct StartError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The address listened on.
    public let host: String
    /// The bound port (the one the kernel picked when the configuration said 0).
    public let port: Int
    /// Connections, messages and disconnections of all clients, in order. Finishes after `stop()`.
    public let events: AsyncStream<WebSocketServerEvent>
    /// What the server was started with.
    public let configuration: WebSocketServerConfiguration
    private let core: ServiceCore
    private let backlog: SendBacklog

    /// Starts listening.
    /// - Throws: `StartError` when the address cannot be bound (in use, not local, not numeric).
    public init(configuration: WebSocketServerConfiguration = .init()) async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: WebSocketServerEvent.self)
        let feed = ServerEventFeed(continuation)
        let backlog = SendBacklog(highWater: configuration.sendQueueHighWater,
                                  lowWater: configuration.sendQueueLowWater)
        let core = ServiceCore(role: .server(configuration, events: feed, backlog: backlog))
        core.start(threadName: "BCWebSocket.server")
        switch await core.waitUntilStarted() {
        case .running(let port) where port > 0:
            self.port = port
        case .running:
            core.submit(.stop)
            throw StartError(description: "could not listen on \(configuration.host):\(configuration.port): "
                + ListenFailureDiagnosis.reason(host: configuration.host, port: configuration.port))
        case .failed(let message):
            throw StartError(description: message)
        }
        self.host = configuration.host
        // Through the pump, so that the service thread learns how far the consumer got (`ServerEventFeed`).
        let pump = EventPump(stream, feed: feed, core: core)
        self.events = AsyncStream(unfolding: { await pump.next() })
        self.core = core
        self.backlog = backlog
        self.configuration = configuration
    }

    /// Sends `text` to one client, byte for byte. With `fragments` > 1 the UTF-8 bytes are split
    /// into that many frames (a text frame, then continuations; the split may fall inside a
    /// character, which WebSocket allows), and that many frames reach the wire, also when the client
    /// agreed to permessage-deflate (each is deflated and flushed on its own). Ignored if the client is gone.
    ///
    /// - Returns: the bytes now queued for the client. Above `sendQueueHighWater` the client is behind: wait
    ///   for `.drained` before sending more. Above `maxQueuedBytes` the server closes it (1008).
    @discardableResult
    public func send(_ text: String, to client: ClientID, fragments: Int = 1) -> Int {
        send(textUTF8: Array(text.utf8), to: client, fragments: fragments)
    }

    /// `send(_:to:fragments:)` for a text message already held as its UTF-8 bytes (which must be valid UTF-8).
    @discardableResult
    public func send(textUTF8 bytes: [UInt8], to client: ClientID, fragments: Int = 1) -> Int {
        send(bytes, binary: false, to: client, fragments: fragments)
    }

    /// Sends several text messages (their UTF-8 bytes) to one client, in order, one frame each: counted and
    /// handed to the loop's thread once for all of them, where `send(_:to:)` takes a lock twice per message.
    ///
    /// - Returns: the bytes now queued for the client, as `send(_:to:fragments:)` does.
    @discardableResult
    public func send(texts: [[UInt8]], to client: ClientID) -> Int {
        guard !texts.isEmpty else { return queuedBytes(for: client) }
        let bytes = texts.reduce(0) { $0 + $1.count }
        let queued = backlog.add(bytes, for: client.rawValue)
        if !core.submit(.sendMessages(id: client.rawValue, messages: texts, binary: false)) {
            backlog.forget(client.rawValue)
            return 0
        }
        return queued
    }

    /// Sends a binary message to one client, split like `send(_:to:fragments:)`.
    @discardableResult
    public func send(_ bytes: [UInt8], to client: ClientID, fragments: Int = 1) -> Int {
        send(bytes, binary: true, to: client, fragments: fragments)
    }

    private func send(_ bytes: [UInt8], binary: Bool, to client: ClientID, fragments: Int) -> Int {
        let queued = backlog.add(bytes.count, for: client.rawValue)
        if !core.submit(.send(id: client.rawValue, bytes: bytes, binary: binary, fragments: fragments)) {
            backlog.forget(client.rawValue)
            return 0
        }
        return queued
    }

    /// The bytes queued for a client and not yet written to its socket.
    public func queuedBytes(for client: ClientID) -> Int {
        backlog.queued(for: client.rawValue)
    }

    /// Closes one client's connection after what is already queued for it; with `discardingQueued`, at once,
    /// dropping what is queued (for a client that does not read, whose queue would never drain).
    public func close(_ client: ClientID, code: UInt16 = 1000, reason: String = "", discardingQueued: Bool = false) {
        core.submit(.close(id: client.rawValue, code: code, reason: reason, discardingQueued: discardingQueued))
    }

    /// Fault injection: stop reading the client's socket and writing to it: its pings go unanswered and queued
    /// sends are held, while the TCP connection stays up. `stall(_:false)` resumes.
    public func stall(_ client: ClientID, _ stalled: Bool = true) {
        core.submit(.stall(id: client.rawValue, stalled))
    }

    /// Closes every client (1001), stops listening and ends `events`. Returns when done.
    public func stop() async {
        core.submit(.stop)
        await core.waitUntilFinished()
    }

    deinit {
        core.submit(.stop)
    }
}
