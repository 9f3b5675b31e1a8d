/// One libwebsockets context serviced by one dedicated OS thread, carrying any number of client
/// connections.
///
/// lws is single-threaded: every lws call except `lws_cancel_service` happens on the loop's own
/// thread. Other threads (and tasks) talk to it through a locked command queue and
/// `lws_cancel_service`; results come back through each connection's `AsyncStream` (or handler). The context is
/// destroyed on that thread, outside any callback, by `shutdown()` or when the last reference to
/// the loop (each `WebSocketLink` holds one) goes away.
public final class WebSocketLoop: Sendable {
    let core: ServiceCore

    /// Starts the service thread.
    /// - Parameter name: the OS thread's name, shown by debuggers and `top -H`.
    public init(name: String = "BCWebSocket.loop") {
        core = ServiceCore(role: .client)
        core.start(threadName: name)
    }

    /// A process-wide loop for callers that do not need their own; never shut down.
    public static let shared = WebSocketLoop(name: "BCWebSocket.shared")

    /// Starts one connection attempt. Progress and messages arrive on the returned connection's
    /// `events`; a failure to connect is an event (`.failed`), never a thrown error. There is no
    /// reconnect here: after `.closed` or `.failed`, make a new connection.
    public func connect(
        to url: WebSocketURL,
        configuration: WebSocketClientConfiguration = .init()
    ) -> WebSocketConnection {
        let id = core.makeID()
        let (events, continuation) = AsyncStream.makeStream(of: WebSocketEvent.self)
        continuation.onTermination = { [weak core] _ in
            // Also runs after we finish the stream ourselves; the session is gone by then.
            core?.submit(.consumerGone(id: id))
        }
        let link = open(id: id, url: url, configuration: configuration) { _, event in
            continuation.yield(event)
            switch event {
            case .closed, .failed: continuation.finish()
            case .upgrading, .opened, .text, .binary, .refused: break
            }
        }
        return WebSocketConnection(link: link, events: events)
    }

    /// Starts one connection attempt whose events are handed to `onEvent` on the loop's own thread, in
    /// order: `.opened`, messages, then `.closed`; or just `.failed`. Nothing comes after the last one.
    ///
    /// This spares a task switch per message over `connect(to:configuration:)`, for a consumer that
    /// already has a queue of its own to put events on. `onEvent` must return quickly and never block:
    /// the thread serves every connection of the loop. Dropping the link does not close the connection;
    /// call `close` for that.
    ///
    /// With a `window`, the loop stops reading the socket while the window is full (the consumer releases each
    /// message it is done with), so a fast peer cannot fill the process's memory: TCP pushes back instead.
    public func connect(
        to url: WebSocketURL,
        configuration: WebSocketClientConfiguration = .init(),
        window: ReceiveWindow? = nil,
        onEvent: @escaping @Sendable (WebSocketEvent) -> Void
    ) -> WebSocketLink {
        open(id: core.makeID(), url: url, configuration: configuration, window: window) { _, event in onEvent(event) }
    }

    /// `connect(to:configuration:window:onEvent:)` for a handler that answers on the same link: `onEvent` gets
    /// the link with each event, so it can `send` from the first message on.
    ///
    /// Use this one to reply from the handler. The link the other form returns exists only once `connect` has
    /// returned, and the peer's first message can come before the caller has stored it (the loop's thread runs
    /// on while the caller's thread waits for a CPU): a reply to it would be lost, and a peer that waits for it
    /// would wait for ever (Autobahn's 9.7.2 and 13.7.11 did, once each in a run on a loaded machine).
    public func connect(
        to url: WebSocketURL,
        configuration: WebSocketClientConfiguration = .init(),
        window: ReceiveWindow? = nil,
        onEvent: @escaping @Sendable (WebSocketLink, WebSocketEvent) -> Void
    ) -> WebSocketLink {
        open(id: core.makeID(), url: url, configuration: configuration, window: window, deliver: onEvent)
    }

    private func open(id: UInt64, url: WebSocketURL, configuration: WebSocketClientConfiguration,
                      window: ReceiveWindow? = nil,
                      deliver: @escaping @Sendable (WebSocketLink, WebSocketEvent) -> Void) -> WebSocketLink {
        // Made before the command, so that the first event already has it; without the loop (see `WebSocketLink.loop`).
        let handed = WebSocketLink(id: id, url: url, core: core, loop: nil)
        let accepted = core.submit(.openClient(id: id, url: url, configuration: configuration, window: window,
                                               deliver: { deliver(handed, $0) }))
        if accepted {
            AddressResolver.resolve(host: url.host) { [weak core] result in
                core?.submit(.resolved(id: id, result))
            }
        } else {
            deliver(handed, .failed(.other("the WebSocket loop has stopped")))
        }
        return WebSocketLink(id: id, url: url, core: core, loop: self)
    }

    /// Closes every connection (1001, going away), destroys the context and ends the thread.
    /// Returns when that is done. Connections made afterwards fail at once.
    public func shutdown() async {
        core.submit(.stop)
        await core.waitUntilFinished()
    }

    deinit {
        core.submit(.stop)
    }
}
