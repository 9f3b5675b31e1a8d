import CLibWebSockets
import Foundation

/// The service thread and its mailbox: the thread turns the context's libev loop until the loop stops, and other
/// threads reach it only through `submit` (a command queued under the mailbox lock, and a wake-up) and the start
/// and finish waits. Also the loop's own timers: the one-second sweep and the stop deadline.
extension ServiceCore {
    /// What other threads share with the service thread, under `mailbox`'s lock.
    struct Mailbox {
        var commands: [ServiceCommand] = []
        /// The context's address once created, 0 before and from the moment destruction starts.
        var contextAddress: UInt = 0
        var finished = false
        var start: ServiceStart?
        var startWaiters: [CheckedContinuation<ServiceStart, Never>] = []
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
    }

    // MARK: Any thread

    /// Starts the service thread; it holds the core until the context is destroyed.
    func start(threadName: String) {
        let thread = Thread { [self] in
            self.run()
        }
        thread.name = threadName
        thread.start()
    }

    /// Queues a command and wakes the service thread. `false` once the core has finished.
    @discardableResult
    func submit(_ command: ServiceCommand) -> Bool {
        mailbox.withLock { box in
            guard !box.finished else { return false }
            box.commands.append(command)
            // A non-empty queue already has a wake-up on its way (the drain empties it).
            if box.commands.count == 1, let context = OpaquePointer(bitPattern: box.contextAddress) {
                lws_cancel_service(context)
            }
            return true
        }
    }

    /// Waits until the context exists (or failed to).
    func waitUntilStarted() async -> ServiceStart {
        await withCheckedContinuation { continuation in
            let ready: ServiceStart? = mailbox.withLock { box in
                if let start = box.start { return start }
                box.startWaiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Waits until the context is destroyed and the thread is done with it.
    func waitUntilFinished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = mailbox.withLock { box in
                if box.finished { return true }
                box.finishWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    // MARK: Service thread: the loop

    private func run() {
        lws_set_log_level(Self.logLevel, nil)
        if let problem = prepareServerTLS() {
            finishMailbox(start: .failed(problem))
            return
        }
        guard let context = createContext() else {
            freeTables()
            let message: String
            if case .server(let configuration, _, _) = role {
                message = "could not listen on \(configuration.host):\(configuration.port): "
                    + ListenFailureDiagnosis.reason(host: configuration.host, port: configuration.port)
            } else {
                message = "the WebSocket loop could not start: check the limits on memory and open files (ulimit -n)"
            }
            finishMailbox(start: .failed(message))
            return
        }
        self.context = context
        var port = 0
        if case .server = role, let vhost = lws_get_vhost_by_name(context, "bc-0") {
            port = Int(lws_get_vhost_listen_port(vhost))
        }
        let waiters = mailbox.withLock { box in
            box.contextAddress = UInt(bitPattern: context)
            box.start = .running(port: port)
            let waiters = box.startWaiters
            box.startWaiters = []
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: .running(port: port)) }
        // Commands queued before the context existed had no one to wake them.
        drainCommands()
        scheduleSweep(context)

        let coalesce = role.isClient
        var load = DeliveryRate()
        guard let eventLoop else { preconditionFailure("createContext makes the event loop with the context") }
        while !(stopping && (sessions.isEmpty || stopDeadlinePassed)) {
            bc_ev_run_once(eventLoop)
            freeRetiredTimers()
            if coalesce, deliveredThisPass > 0 {
                // Busy: let the next messages gather before polling again (see `readCoalescing`).
                if load.isBusy(adding: deliveredThisPass, now: .now) { usleep(Self.readCoalescing) }
                deliveredThisPass = 0
            }
        }

        // Past this point no other thread may reach the context.
        mailbox.withLock { $0.contextAddress = 0 }
        stopping = true
        for session in sessions.values { retireTimer(of: session) }
        if let stopTimer { lws_sul_cancel(Self.sul(of: stopTimer)) }
        if let sweepTimer { lws_sul_cancel(Self.sul(of: sweepTimer)) }
        destroying = true
        lws_context_destroy(context)
        self.context = nil
        bc_ev_loop_destroy(eventLoop)
        self.eventLoop = nil
        for session in Array(sessions.values) {
            finish(session, closed: WebSocketCloseReason(
                code: 1001, text: "", initiatedLocally: true, cause: .loopStopped))
        }
        freeRetiredTimers()
        stopTimer?.deallocate()
        stopTimer = nil
        sweepTimer?.deallocate()
        sweepTimer = nil
        freeTables()
        if case .server(_, let events, _) = role { events.finish() }
        finishMailbox(start: nil)
    }

    private func finishMailbox(start: ServiceStart?) {
        let (leftover, startWaiters, finishWaiters, startResult) = mailbox.withLock { box in
            box.finished = true
            if let start { box.start = start }
            let result = box.start ?? .failed("stopped before starting")
            box.start = result
            let taken = (box.commands, box.startWaiters, box.finishWaiters, result)
            box.commands = []
            box.startWaiters = []
            box.finishWaiters = []
            return taken
        }
        for command in leftover {
            if case .openClient(_, _, _, _, let deliver) = command {
                deliver(.failed(.other("the WebSocket loop has stopped")))
            }
        }
        for waiter in startWaiters { waiter.resume(returning: startResult) }
        for waiter in finishWaiters { waiter.resume() }
    }

    /// Runs every queued command; called from LWS_CALLBACK_EVENT_WAIT_CANCELLED (lws delivers it
    /// once per vhost, so this must be, and is, harmless when the queue is empty).
    func drainCommands() {
        let commands = mailbox.withLock { box in
            let taken = box.commands
            box.commands = []
            return taken
        }
        for command in commands { perform(command) }
    }

    // MARK: Service thread: timers

    /// The loop's sweep: every `oversizeSweepInterval`, announced-oversize frames and the client keepalive.
    func scheduleSweep(_ context: OpaquePointer) {
        if sweepTimer == nil {
            let timer = UnsafeMutablePointer<bc_lws_timer_t>.allocate(capacity: 1)
            timer.initialize(to: bc_lws_timer_t())
            timer.pointee.session_id = Self.sweepTimerID
            timer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
            sweepTimer = timer
        }
        guard let sweepTimer else { return }
        let (seconds, attoseconds) = Self.oversizeSweepInterval.components
        lws_sul_schedule(context, 0, Self.sul(of: sweepTimer), bcTimerCallback,
                         seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    }

    /// A binding timer fired: the loop's sweep, the stop deadline (id 0), or a session's own timer.
    private func timerFired(sessionID: UInt64) {
        if sessionID == Self.sweepTimerID {
            refuseAnnouncedOversize()
            let now = ContinuousClock.now
            for session in sessions.values {
                if let link = session.link { keepAlive(session, link: link, now: now) }
            }
            if let context, !destroying { scheduleSweep(context) }
            return
        }
        if sessionID == 0 {
            stopDeadlinePassed = true
            return
        }
        guard let session = sessions[sessionID], !session.finished else { return }
        if session.client == nil, !session.isOpen {
            upgradeTimedOut(session)
            return
        }
        if session.isOpen, session.closeUrgently, session.closeRequest == nil {
            faultWaitEnded(session)  // a server's consumer did not get to the fault within `faultReplyGrace`
            return
        }
        if session.isOpen, session.closeUrgently || session.link?.machine.closeWritten == true {
            // The close frame could not get out (a peer that does not read: lws holds WRITEABLE back while a
            // partial write waits): drop the TCP connection.
            retireTimer(of: session)
            if let wsi = session.wsi { bc_lws_kill_async(wsi) }
            return
        }
        connectDeadlinePassed(session)
    }

    fileprivate func timerCallback(_ timer: UnsafeMutablePointer<bc_lws_timer_t>) {
        timerFired(sessionID: timer.pointee.session_id)
    }
}

/// The sul callback of every binding timer: the sul is the first member of `bc_lws_timer_t`.
func bcTimerCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let timer = bc_lws_timer_from_sul(sul), let owner = timer.pointee.owner else { return }
    let core = Unmanaged<ServiceCore>.fromOpaque(owner).takeUnretainedValue()
    core.timerCallback(timer)
}
