import Foundation
import Metrics
import Prometheus
import Synchronization

/// Serves the process's swift-metrics counters in Prometheus text format at `GET /metrics`, on a thread of its
/// own with plain sockets: one request at a time, at most 8 KiB of request read within 2 seconds (scrapers are
/// not trusted), anything but `GET /metrics` answered 404.
final class MetricsServer: Sendable {
    let registry: PrometheusCollectorRegistry
    let port: Int
    private let socket: Int32

    /// Bootstraps swift-metrics with a Prometheus registry (once per process) and listens on `host:port`
    /// (port 0: any free port, see `port`).
    init(host: String, port: Int) throws {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        self.registry = registry
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CommandFailure("--metrics-port: socket(): \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            close(fd)
            throw CommandFailure("--metrics-host takes an IPv4 address, not \(host)")
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw CommandFailure("cannot serve metrics on \(host):\(port): \(reason)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        self.socket = fd
        let thread = Thread { [registry] in Self.serve(fd, registry: registry) }
        thread.name = "bcstream.metrics"
        thread.start()
    }

    /// Stops accepting: the thread's accept fails and it ends.
    func stop() {
        shutdown(socket, Int32(SHUT_RDWR))
    }

    private static func serve(_ listener: Int32, registry: PrometheusCollectorRegistry) {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            answer(client, registry: registry)
            close(client)
        }
    }

    private static func answer(_ client: Int32, registry: PrometheusCollectorRegistry) {
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 2048)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while request.count < 8192 {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            request += chunk[0..<count]
            if request.count >= 4, request.suffix(4).elementsEqual(end) || request.firstRange(of: end) != nil { break }
        }
        let firstLine = String(decoding: request.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let parts = firstLine.split(separator: " ")
        var body: [UInt8]
        let status: String
        if parts.count >= 2, parts[0] == "GET", parts[1] == "/metrics" || parts[1].hasPrefix("/metrics?") {
            body = []
            registry.emit(into: &body)
            status = "200 OK"
        } else {
            body = Array("only GET /metrics is served here\n".utf8)
            status = "404 Not Found"
        }
        let head = "HTTP/1.1 \(status)\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let response = Array(head.utf8) + body
        var sent = 0
        while sent < response.count {
            let count = response[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return }
            sent += count
        }
    }
}
