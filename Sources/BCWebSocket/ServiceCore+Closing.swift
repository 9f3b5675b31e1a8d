import CLibWebSockets

/// Closing a session: a close asked for (after what is queued), and a close this side decides at once because the
/// peer broke a rule or does not read. Service thread only, like the rest of `ServiceCore`.
extension ServiceCore {
    /// Closes after what is queued (a close asked for, the consumer gone, the loop stopping); before the connection
    /// opened, abandons the attempt.
    func requestClose(_ session: ServiceSession, code: UInt16, text: String, cause: WebSocketCloseReason.Cause) {
        guard !session.finished else { return }
        guard session.isOpen, let wsi = session.wsi else {
            // Not open yet: abandon the attempt.
            if let wsi = session.wsi { bc_lws_kill_async(wsi) }
            session.wsi = nil
            finish(session, failed: .cancelled)
            return
        }
        guard session.closeRequest == nil else { return }
        session.closeRequest = (code, text, cause)
        session.link?.machine.requestClose(.init(code: code, text: text), discardingQueued: false)
        if session.stalled {
            // A stalled session is closed without ceremony: it would never drain its queue.
            session.stalled = false
            lws_rx_flow_control(wsi, 1)
        }
        lws_callback_on_writable(wsi)
    }

    /// Closes now: reading stops at once (nothing more of the peer is read or delivered), and the close frame goes
    /// out within `urgentCloseDeadline` or the TCP connection is dropped.
    ///
    /// What is queued goes out first (RFC 6455 lets an endpoint finish what it sends before its close): when the
    /// peer broke a rule after messages whose answers are queued, those answers are not lost. Answers still on
    /// their way are kept too: the close is decided through the command queue (`.closeAfterFault`), behind any
    /// send already submitted, so a reply made from an `onEvent` handler to a message delivered before the fault
    /// goes out before the close. A server's consumer reads its events on a task, so its replies may come after
    /// the fault was read: a server's close is decided once the consumer is done with the events delivered before
    /// the fault (`ServerEventFeed`), or after `faultReplyGrace` at most, and sends that arrive until then go out
    /// before it. With `discardingQueued` the queue is dropped instead and the close is decided now:
    /// the peer does not read (its queue passed `maxQueuedBytes`, it pings faster than it reads), or the caller
    /// asked so.
    func requestUrgentClose(_ session: ServiceSession, code: UInt16, text: String, cause: WebSocketCloseReason.Cause,
                            discardingQueued: Bool = false) {
        guard !session.finished else { return }
        if discardingQueued {
            let dropped = session.dropOutgoing()
            if case .server(_, _, let backlog) = role, dropped > 0 { _ = backlog.remove(dropped, for: session.id) }
        }
        guard session.isOpen, let wsi = session.wsi else {
            requestClose(session, code: code, text: text, cause: cause)
            return
        }
        guard !session.closeUrgently || discardingQueued else { return }
        session.localClose = WebSocketCloseReason(code: code, text: text, initiatedLocally: true, cause: cause)
        session.closeUrgently = true
        session.stalled = false
        lws_rx_flow_control(wsi, 0)
        retireTimer(of: session)
        if !discardingQueued, case .server(_, let events, _) = role, !events.fence(session: session.id) {
            // `.faultRepliesHandled` or the timer decides the close (`faultWaitEnded`).
            startTimer(session, after: Self.faultReplyGrace)
            return
        }
        startTimer(session, after: Self.urgentCloseDeadline)
        if discardingQueued {
            decideClose(session, code: code, text: text, cause: cause, discardingQueued: true)
        } else if !submit(.closeAfterFault(id: session.id, code: code, text: text, cause: cause)) {
            decideClose(session, code: code, text: text, cause: cause, discardingQueued: false)
        }
    }

    /// The close frame is decided: nothing more is queued, and it goes out after what is (or before it, with
    /// `discardingQueued`).
    func decideClose(_ session: ServiceSession, code: UInt16, text: String, cause: WebSocketCloseReason.Cause,
                     discardingQueued: Bool) {
        guard !session.finished, let wsi = session.wsi else { return }
        if discardingQueued || session.closeRequest == nil { session.closeRequest = (code, text, cause) }
        session.link?.machine.requestClose(.init(code: code, text: text), discardingQueued: discardingQueued)
        lws_callback_on_writable(wsi)
    }

    /// Close codes an endpoint may put on the wire (RFC 6455 7.4); anything else becomes 1000.
    static func sendableCloseCode(_ code: UInt16) -> UInt16 {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: code
        default: 1000
        }
    }
}
