import Foundation
import Prometheus
import Synchronization
import Glibc

/// The listening socket of a `MetricsServer`: non-blocking, close-on-exec, `SO_REUSEADDR`.
struct MetricsListener {
    let fd: Int32
    let port: Int

    init(host: String, port: Int) throws {
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let family: Int32
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            family = AF_INET
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            family = AF_INET6
        } else {
            throw FleetFailure("--metrics-host takes an IP address, not \(host)")
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
                            | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw FleetFailure("cannot serve metrics: socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound: Int32
        if family == AF_INET {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
            bound = withUnsafePointer(to: &v4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        } else {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
            bound = withUnsafePointer(to: &v6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        guard bound == 0, listen(fd, 4096) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw FleetFailure("cannot serve metrics on \(host):\(port): \(reason)")
        }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let picked = withUnsafePointer(to: &address) { pointer -> UInt16 in
            family == AF_INET
                ? pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
                : pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
        }
        self.fd = fd
        self.port = Int(UInt16(bigEndian: picked))
    }
}

/// The IO of a `MetricsServer` on its own thread: one `poll(2)` over the listening socket, a wake-up pipe and
/// every connection, non-blocking reads and writes, and a sweep of deadlines every 100 ms. What to close and when
/// is `MetricsConnections`' to decide; what a request says is `MetricsRequest`'s.
///
/// `@unchecked Sendable`: `MetricsServer` starts `run()` on one thread, and every stored property but `counts`'
/// mutex and the wake-up pipe's descriptors (written once, in `init`) is touched by that thread only. Other
/// threads call only `counts` (through the mutex) and `wake(stopping:)` (an atomic and a write to the pipe).
final class MetricsServerLoop: @unchecked Sendable {
    private struct Connection {
        let id: UInt64
        var received: [UInt8] = []
        var answer: [UInt8] = []
        var written = 0
        var answering: Bool { !answer.isEmpty }
    }

    private let listener: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let registry: PrometheusCollectorRegistry
    private let limits: MetricsServer.Limits
    private let acceptErrors: Prometheus.Counter
    private let stopping = Atomic<Bool>(false)
    private let countsBox = Mutex<(open: Int, accepted: Int)>((0, 0))
    private var policy: MetricsConnections<UInt64, ContinuousClock.Instant>
    private var connections: [Int32: Connection] = [:]
    private var descriptors: [UInt64: Int32] = [:]
    private var nextID: UInt64 = 0
    private var acceptPausedUntil: ContinuousClock.Instant?

    init(listener: MetricsListener, registry: PrometheusCollectorRegistry, limits: MetricsServer.Limits,
         acceptErrors: Prometheus.Counter) throws {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            close(listener.fd)
            throw FleetFailure("cannot serve metrics: pipe: \(String(cString: strerror(errno)))")
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        self.listener = listener.fd
        wakeRead = pipeEnds[0]
        wakeWrite = pipeEnds[1]
        self.registry = registry
        self.limits = limits
        self.acceptErrors = acceptErrors
        policy = MetricsConnections(capacity: limits.maxConnections)
    }

    /// Connections open now, and accepted in all.
    var counts: (open: Int, accepted: Int) { countsBox.withLock { $0 } }

    /// Interrupts the loop's wait; with `stopping`, the loop closes everything and returns.
    func wake(stopping: Bool) {
        if stopping { self.stopping.store(true, ordering: .releasing) }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Serves until `wake(stopping: true)`.
    func run() {
        var fds: [pollfd] = []
        while !stopping.load(ordering: .acquiring) {
            let now = ContinuousClock.now
            if let until = acceptPausedUntil, until <= now { acceptPausedUntil = nil }
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: acceptPausedUntil == nil ? listener : -1, events: Int16(POLLIN), revents: 0))
            for (fd, connection) in connections {
                fds.append(pollfd(fd: fd, events: Int16(connection.answering ? POLLOUT : POLLIN), revents: 0))
            }
            let ready = poll(&fds, nfds_t(fds.count), 100)
            if ready > 0 {
                if fds[0].revents != 0 { drainWakePipe() }
                if fds[1].revents != 0 { acceptAll() }
                for entry in fds.dropFirst(2) where entry.revents != 0 { serve(entry.fd, events: entry.revents) }
            }
            for id in policy.expired(at: .now) { closeConnection(id) }
            publishCounts()
        }
        for fd in connections.keys { close(fd) }
        connections = [:]
        descriptors = [:]
        close(listener)
        close(wakeRead)
        close(wakeWrite)
        publishCounts()
    }

    private func publishCounts() {
        let counts = (open: connections.count, accepted: Int(nextID))
        countsBox.withLock { $0 = counts }
    }

    private func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }

    /// Accepts every connection waiting. An accept that fails pauses accepting for `acceptBackoff` (without the
    /// pause, a listening socket that stays readable makes the loop spin on EMFILE); one that failed for want of
    /// descriptors also closes the oldest connections still waiting for their request.
    private func acceptAll() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                nextID += 1
                connections[fd] = Connection(id: nextID)
                descriptors[nextID] = fd
                if let evicted = policy.opened(nextID, deadline: .now + limits.requestTimeout) {
                    closeConnection(evicted)
                }
                continue
            }
            let error = errno
            if error == EAGAIN || error == EWOULDBLOCK || error == EINTR { return }
            acceptErrors.increment()
            if error == EMFILE || error == ENFILE {
                for _ in 0..<limits.closedOnDescriptorShortage {
                    guard let oldest = policy.evictOldestAwaiting() else { break }
                    closeConnection(oldest)
                }
            }
            acceptPausedUntil = .now + limits.acceptBackoff
            return
        }
    }

    private func serve(_ fd: Int32, events: Int16) {
        guard let connection = connections[fd] else { return }
        if connection.answering {
            writeAnswer(fd)
        } else if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            readRequest(fd)
        }
    }

    private func readRequest(_ fd: Int32) {
        guard var connection = connections[fd] else { return }
        let room = limits.maxRequestBytes + 1 - connection.received.count
        var buffer = [UInt8](repeating: 0, count: max(1, min(room, 4096)))
        let count = read(fd, &buffer, buffer.count)
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
        guard count > 0 else { return closeConnection(connection.id) }  // the peer left, or an error
        let newFrom = connection.received.count
        connection.received += buffer[..<count]
        switch MetricsRequest.read(connection.received, newFrom: newFrom, limit: limits.maxRequestBytes) {
        case .incomplete:
            connections[fd] = connection
        case .tooLarge:
            closeConnection(connection.id)
        case .malformed:
            answer(fd, connection, status: "400 Bad Request", body: Array("not an HTTP request\n".utf8))
        case .complete(let method, let path):
            if method == "GET", path == "/metrics" {
                var body: [UInt8] = []
                registry.emit(into: &body)
                answer(fd, connection, status: "200 OK", body: body)
            } else {
                answer(fd, connection, status: "404 Not Found", body: Array("only GET /metrics is served here\n".utf8))
            }
        }
    }

    private func answer(_ fd: Int32, _ connection: Connection, status: String, body: [UInt8]) {
        var connection = connection
        connection.received = []
        connection.answer = Array("""
            HTTP/1.1 \(status)\r
            Content-Type: text/plain; version=0.0.4; charset=utf-8\r
            Content-Length: \(body.count)\r
            Connection: close\r
            \r

            """.utf8) + body
        connections[fd] = connection
        policy.requestArrived(connection.id, answerBy: .now + limits.requestTimeout)
        writeAnswer(fd)
    }

    /// Writes what the socket takes of the answer; closes the connection once it is all written.
    private func writeAnswer(_ fd: Int32) {
        guard var connection = connections[fd] else { return }
        let sent = connection.answer.withUnsafeBytes { bytes in
            send(fd, bytes.baseAddress! + connection.written, bytes.count - connection.written, Int32(MSG_NOSIGNAL))
        }
        if sent < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
            return closeConnection(connection.id)
        }
        connection.written += sent
        guard connection.written < connection.answer.count else { return closeConnection(connection.id) }
        connections[fd] = connection
    }

    private func closeConnection(_ id: UInt64) {
        guard let fd = descriptors.removeValue(forKey: id) else { return }
        policy.closed(id)
        connections[fd] = nil
        close(fd)
    }
}
