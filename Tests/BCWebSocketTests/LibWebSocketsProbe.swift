@testable import BCWebSocket
import CLibWebSockets
import Foundation

/// One lws client context with one raw connection, serviced on the calling thread until the connection reports
/// (connected, failed or closed) or `limit` passes: what lws itself says and does, with nothing of the binding
/// in between, for `LibWebSocketsAssumptionsTests`.
final class LibWebSocketsProbe {
    enum Outcome: Equatable {
        /// RAW_CONNECTED, then (when there was something to write) RAW_WRITEABLE wrote it.
        case connected(wrote: Int32?)
        /// CLIENT_CONNECTION_ERROR with lws' text.
        case failed(String)
        /// Neither within the limit.
        case noAnswer
    }

    private var outcome: Outcome?
    private let toWrite: [UInt8]?

    private init(toWrite: [UInt8]?) {
        self.toWrite = toWrite
    }

    /// Connects to `address:port` (numeric) as a raw socket ("RAW", `LibWebSocketsAssumptions.rawMethod`) on a
    /// context whose `connect_timeout_secs` is `connectTimeoutSeconds`, writes `write` with
    /// `LibWebSocketsAssumptions.rawWrite` once connected, and says what happened.
    /// With `onLibev`, the context runs on a libev loop of the probe's (`LibWebSocketsAssumptions.eventLoopOption`),
    /// which the probe turns, and `waitedInEpoll` says whether that loop's backend is epoll.
    static func connect(to address: String, port: Int, connectTimeoutSeconds: UInt32 = 20, write: [UInt8]? = nil,
                        limit: Duration = .seconds(10), onLibev: Bool = false,
                        waitedInEpoll: UnsafeMutablePointer<Bool>? = nil) -> Outcome {
        let probe = LibWebSocketsProbe(toWrite: write)
        let name = strdup("probe")!
        let vhostName = strdup("probe-0")!
        let host = strdup(address)!
        defer {
            free(name)
            free(vhostName)
            free(host)
        }
        let protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 2)
        protocols.initialize(repeating: lws_protocols(), count: 2)
        defer { protocols.deallocate() }
        protocols[0].name = UnsafePointer(name)
        protocols[0].callback = probeCallback

        var info = lws_context_creation_info()
        info.protocols = UnsafePointer(protocols)
        info.user = Unmanaged.passUnretained(probe).toOpaque()
        info.port = bc_lws_port_no_listen()
        info.gid = -1
        info.uid = -1
        info.vhost_name = UnsafePointer(vhostName)
        info.connect_timeout_secs = connectTimeoutSeconds
        info.timeout_secs = connectTimeoutSeconds
        lws_set_log_level(0, nil)
        let eventLoop = onLibev ? bc_ev_loop_new() : nil
        let foreignLoops = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)
        defer { foreignLoops.deallocate() }
        if let eventLoop {
            foreignLoops.initialize(to: UnsafeMutableRawPointer(eventLoop))
            info.foreign_loops = foreignLoops
            info.options |= LibWebSocketsAssumptions.eventLoopOption
            waitedInEpoll?.pointee = bc_ev_uses_epoll(eventLoop) != 0
        }
        guard let context = lws_create_context(&info) else {
            if let eventLoop { bc_ev_loop_destroy(eventLoop) }
            return .failed("no context")
        }
        // lws calls back into the probe while it destroys the context; the loop is ours to destroy after it.
        defer {
            withExtendedLifetime(probe) { lws_context_destroy(context) }
            if let eventLoop { bc_ev_loop_destroy(eventLoop) }
        }

        // Our own deadline, so that a library that never answers fails the test instead of hanging it, and a tick
        // every `tickMicroseconds`: lws 4.1.6 checks a connection's timeout only when something wakes its loop (the
        // binding's loop has its one-second sweep).
        probe.context = context
        let timers = UnsafeMutablePointer<bc_lws_timer_t>.allocate(capacity: 2)
        timers.initialize(repeating: bc_lws_timer_t(), count: 2)
        defer { timers.deallocate() }
        let deadline = timers
        deadline.pointee.owner = Unmanaged.passUnretained(probe).toOpaque()
        probe.tick = timers + 1
        probe.tick?.pointee.owner = Unmanaged.passUnretained(probe).toOpaque()
        probe.tick?.pointee.session_id = 1
        let (seconds, attoseconds) = limit.components
        lws_sul_schedule(context, 0, ServiceCore.sul(of: deadline), probeTimer,
                         seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        probe.scheduleTick()

        var connect = lws_client_connect_info()
        connect.context = context
        connect.vhost = lws_get_vhost_by_name(context, vhostName)
        connect.address = UnsafePointer(host)
        connect.host = UnsafePointer(host)
        connect.port = Int32(port)
        connect.local_protocol_name = UnsafePointer(name)
        connect.method = bc_lws_raw_method()
        if lws_client_connect_via_info(&connect) == nil, probe.outcome == nil {
            probe.outcome = .failed("lws_client_connect_via_info returned NULL")
        }
        while probe.outcome == nil {
            if let eventLoop {
                bc_ev_run_once(eventLoop)
            } else if lws_service(context, 0) < 0 {
                break
            }
        }
        lws_sul_cancel(ServiceCore.sul(of: deadline))
        lws_sul_cancel(ServiceCore.sul(of: timers + 1))
        probe.tick = nil
        return probe.outcome ?? .noAnswer
    }

    fileprivate func handle(wsi: OpaquePointer, reason: lws_callback_reasons, input: UnsafeMutableRawPointer?,
                            length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_RAW_CONNECTED:
            guard toWrite != nil else {
                outcome = outcome ?? .connected(wrote: nil)
                return 0
            }
            lws_callback_on_writable(wsi)
        case LWS_CALLBACK_RAW_WRITEABLE:
            guard let toWrite, outcome == nil else { return 0 }
            let pre = bc_lws_pre()
            var buffer = [UInt8](repeating: 0, count: pre + toWrite.count)
            buffer.replaceSubrange(pre..., with: toWrite)
            let wrote = buffer.withUnsafeMutableBufferPointer {
                lws_write(wsi, $0.baseAddress! + pre, toWrite.count, LibWebSocketsAssumptions.rawWrite)
            }
            outcome = .connected(wrote: wrote)
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            outcome = outcome ?? .failed(ServiceCore.text(input, length))
        default:
            break
        }
        return 0
    }

    private var context: OpaquePointer?
    private var tick: UnsafeMutablePointer<bc_lws_timer_t>?
    private static let tickMicroseconds: Int64 = 100_000

    private func scheduleTick() {
        guard let context, let tick else { return }
        lws_sul_schedule(context, 0, ServiceCore.sul(of: tick), probeTimer, Self.tickMicroseconds)
    }

    fileprivate func timerFired(_ id: UInt64) {
        if id == 1 {
            scheduleTick()
        } else {
            outcome = outcome ?? .noAnswer
        }
    }
}

private func probeCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let raw = lws_context_user(context) else { return 0 }
    return Unmanaged<LibWebSocketsProbe>.fromOpaque(raw).takeUnretainedValue()
        .handle(wsi: wsi, reason: reason, input: input, length: length)
}

private func probeTimer(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let timer = bc_lws_timer_from_sul(sul), let owner = timer.pointee.owner else { return }
    Unmanaged<LibWebSocketsProbe>.fromOpaque(owner).takeUnretainedValue().timerFired(timer.pointee.session_id)
}
