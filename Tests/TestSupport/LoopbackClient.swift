import Foundation

/// Plain loopback client sockets for the metrics port's tests: scrapes timed from connect to the last byte, idle
/// and dripping connections. Every socket is close-on-exec (children spawned by other tests must not hold them).
public enum LoopbackClient {
    public struct Scrape: Sendable {
        public var status: Int
        public var body: String
        public var elapsed: Duration
    }

    /// A socket connected (or connecting, when `waiting` is false) to 127.0.0.1:`port`; -1 when the process has
    /// no descriptor left.
    public static func connect(port: Int, waiting: Bool = true) -> Int32 {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            | (waiting ? 0 : Int32(SOCK_NONBLOCK.rawValue))
        let fd = socket(AF_INET, type, 0)
        guard fd >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0, !(errno == EINPROGRESS && !waiting) {
            close(fd)
            return -1
        }
        return fd
    }

    public static func send(_ fd: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// One `GET path` with a fresh connection, given at most `limit` for the request and the answer; nil when it
    /// got no whole answer in that time. `elapsed` counts from before the connect. Blocking: call it off the concurrency pool (`offPool`).
    public static func scrape(port: Int, path: String = "/metrics", limit: Duration = .seconds(5)) -> Scrape? {
        let clock = ContinuousClock()
        let start = clock.now
        let fd = connect(port: port)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: Int(limit.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard send(fd, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") else { return nil }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while clock.now - start < limit {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            answer += chunk[0..<count]
        }
        let elapsed = clock.now - start
        let text = String(decoding: answer, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n"), text.hasPrefix("HTTP/1.1 "),
              let status = Int(text.dropFirst(9).prefix(3)) else { return nil }
        return Scrape(status: status, body: String(text[headEnd.upperBound...]), elapsed: elapsed)
    }

    /// Reads `fd` until the server closes it (EOF or reset), for up to `limit`: what it sent and when it closed,
    /// nil if it did not close in time.
    public static func readUntilClosed(_ fd: Int32, within limit: Duration) -> (bytes: [UInt8], after: Duration)? {
        let clock = ContinuousClock()
        let start = clock.now
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while clock.now - start < limit {
            let left = limit - (clock.now - start)
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
            guard poll(&entry, 1, Int32(max(1, milliseconds))) > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                bytes += chunk[0..<count]
            } else if count == 0 || errno != EAGAIN {
                return (bytes, clock.now - start)
            }
        }
        return nil
    }
}

/// Runs blocking work on a thread of its own, so that it holds no thread of the concurrency pool while it waits.
public func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
