/// A request from any thread to the service thread, queued under a lock and executed when lws
/// delivers `LWS_CALLBACK_EVENT_WAIT_CANCELLED` (woken by `lws_cancel_service`).
enum ServiceCommand: Sendable {
    /// Start a client connection attempt (the session exists from now on; DNS runs elsewhere).
    case openClient(id: UInt64, url: WebSocketURL, configuration: WebSocketClientConfiguration,
                    window: ReceiveWindow?, deliver: @Sendable (WebSocketEvent) -> Void)
    /// DNS finished for a client session.
    case resolved(id: UInt64, Result<[String], WebSocketConnectFailure>)
    /// Try the session's next resolved address (the previous one refused).
    case connectNextAddress(id: UInt64)
    /// Queue a message, split into `fragments` frames.
    case send(id: UInt64, bytes: [UInt8], binary: Bool, fragments: Int)
    /// Queue several whole messages, one frame each, in order.
    case sendMessages(id: UInt64, messages: [[UInt8]], binary: Bool)
    /// Close with this code and reason (or abandon the attempt if not open yet), after what is queued, or at
    /// once, dropping it.
    case close(id: UInt64, code: UInt16, reason: String, discardingQueued: Bool = false)
    /// The peer broke a rule and reading stopped (`ServiceCore.requestUrgentClose`): the close goes out after what
    /// is queued, including sends submitted before this command.
    case closeAfterFault(id: UInt64, code: UInt16, text: String, cause: WebSocketCloseReason.Cause)
    /// A server's events consumer is done with every event delivered before the client's fault: the close it
    /// waited for is decided now (`ServerEventFeed`).
    case faultRepliesHandled(id: UInt64)
    /// The consumer of the events stream went away: close quietly.
    case consumerGone(id: UInt64)
    /// Stop (`true`) or resume reading a session's socket, and writing to it (fault injection).
    case stall(id: UInt64, Bool)
    /// The consumer's `ReceiveWindow` has room again: resume reading a session it paused.
    case resumeReading(id: UInt64)
    /// Close everything and destroy the context.
    case stop
}

/// Whom the service thread serves.
enum ServiceRole: Sendable {
    /// Outgoing connections only; no listening socket.
    case client
    /// A listening vhost; events of all accepted clients go to one stream.
    case server(WebSocketServerConfiguration, events: ServerEventFeed,
                backlog: SendBacklog)

    var isClient: Bool {
        if case .client = self { return true }
        return false
    }
}

/// How the service thread's start ended.
enum ServiceStart: Sendable {
    /// The context exists; `port` is the bound listening port (0 for a client loop).
    case running(port: Int)
    /// `lws_create_context` failed.
    case failed(String)
}
