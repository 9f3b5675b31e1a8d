#if canImport(Glibc)
import Glibc
#endif
import BCWebSocket
import Foundation

/// The blocking part of one `HTTPFetcher` fetch, on its own thread: resolve, connect (each address in turn),
/// TLS through `ClientTLS`, write the GET, read the answer through `HTTPResponseReader`. Every wait also watches
/// the call's pipe, so an answer given elsewhere (deadline, cancellation) ends it at once.
struct HTTPExchange {
    private let call: HTTPFetchCall
    private let deadline: ContinuousClock.Instant
    private var socket: Int32 = -1
    private var tls: ClientTLS?

    init(call: HTTPFetchCall) {
        self.call = call
        deadline = .now + call.request.timeout
    }

    mutating func close() {
        tls = nil
        if socket >= 0 { Glibc.close(socket) }
        socket = -1
    }

    mutating func run() -> HTTPFetchCall.Answer {
        let request = call.request
        let port = request.url.port ?? (call.secure ? 443 : 80)
        var context: ClientTLSContext?
        if call.secure {
            if !request.tls.insecure, let caFile = request.tls.caFile, !FileManager.default.isReadableFile(atPath: caFile) {
                return .failure(.tls(TLSFailure(kind: .trustSetup, description: "cannot read the CA file \(caFile)")))
            }
            switch HTTPFetcher.context(for: request.tls) {
            case .success(let made): context = made
            case .failure(let failure): return .failure(failure)
            }
        }
        let addresses: [String]
        switch AddressResolver.isNumeric(call.host) ? .success([call.host]) : AddressResolver.resolveNow(host: call.host) {
        case .success(let found): addresses = found
        case .failure(.dnsFailed(_, let reason)):
            return .failure(.unreachable("the name \(call.host) could not be resolved (\(reason)): check the name "
                + "and this machine's network"))
        case .failure(let other):
            return .failure(.unreachable(other.description))
        }
        if let failure = connect(addresses, port: port) { return .failure(failure) }
        if let context {
            guard let made = ClientTLS(context: context, host: call.host) else {
                return .failure(.tls(TLSFailure(kind: .other, description: "could not start TLS (out of memory?)")))
            }
            tls = made
            if let failure = handshake(made) { return .failure(failure) }
        }
        if let failure = send(Array(requestHead(port: port).utf8)) { return .failure(failure) }
        return readAnswer()
    }

    // MARK: Steps

    private mutating func connect(_ addresses: [String], port: Int) -> HTTPFetchFailure? {
        var lastError: Int32 = ECONNREFUSED
        for address in addresses {
            guard !call.isAnswered else { return .cancelled }
            var storage = sockaddr_storage()
            var length: socklen_t = 0
            let family = Self.socketAddress(address, port: port, into: &storage, length: &length)
            guard family >= 0 else { continue }
            let fd = Glibc.socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
                                  | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { return .other("no socket available: \(String(cString: strerror(errno)))") }
            socket = fd
            let started = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
            }
            if started == 0 || errno == EINPROGRESS {
                guard wait(for: Int16(POLLOUT)) else { return .timedOut(call.request.timeout) }
                var error: Int32 = 0
                var size = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size)
                if error == 0 { return nil }
                lastError = error
            } else {
                lastError = errno
            }
            Glibc.close(fd)
            socket = -1
        }
        return .unreachable(Self.connectFailure(lastError, host: call.host, port: port))
    }

    private mutating func handshake(_ tls: ClientTLS) -> HTTPFetchFailure? {
        while true {
            switch tls.handshake() {
            case .established:
                return flushTLS()
            case .failed(let reason):
                _ = flushTLS()  // the alert, if any
                return .tls(tls.failure ?? TLSFailure(kind: .other, description: reason))
            case .waiting:
                if let failure = flushTLS() { return failure }
                switch receive() {
                case .bytes(let bytes): bytes.withUnsafeBytes { tls.receive($0) }
                case .ended: return .tls(TLSFailure.handshake(reason: 0, connectionEnded: true))
                case .failed(let failure): return failure
                }
            }
        }
    }

    private mutating func readAnswer() -> HTTPFetchCall.Answer {
        var reader = HTTPResponseReader(maxBodySize: call.request.maxBodySize)
        var plaintext = [UInt8](repeating: 0, count: 16384)
        while true {
            let outcome: HTTPResponseReader.Outcome
            switch receive() {
            case .failed(let failure):
                return .failure(failure)
            case .ended:
                outcome = reader.end()
            case .bytes(let bytes):
                guard let tls else {
                    outcome = bytes.withUnsafeBytes { reader.receive($0) }
                    break
                }
                bytes.withUnsafeBytes { tls.receive($0) }
                var step = HTTPResponseReader.Outcome.needMore
                reading: while case .needMore = step {
                    switch plaintext.withUnsafeMutableBytes({ tls.read(into: $0) }) {
                    case .bytes(let count): step = plaintext.withUnsafeBytes { reader.receive(.init(rebasing: $0[0..<count])) }
                    case .waiting: break reading
                    case .ended: step = reader.end()
                    }
                }
                if let failure = flushTLS() { return .failure(failure) }
                outcome = step
            }
            switch outcome {
            case .needMore: continue
            case .complete(let response): return .success(response)
            case .failed(let failure): return .failure(failure)
            }
        }
    }

    // MARK: Socket

    private enum Received {
        case bytes([UInt8])
        case ended
        case failed(HTTPFetchFailure)
    }

    private func receive() -> Received {
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 { return .bytes(Array(buffer[0..<count])) }
            if count == 0 { return .ended }
            if errno == EINTR { continue }
            guard errno == EAGAIN || errno == EWOULDBLOCK else {
                return errno == ECONNRESET ? .ended : .failed(.other("reading failed: \(String(cString: strerror(errno)))"))
            }
            guard wait(for: Int16(POLLIN)) else { return .failed(.timedOut(call.request.timeout)) }
        }
    }

    private func send(_ bytes: [UInt8]) -> HTTPFetchFailure? {
        if let tls {
            guard bytes.withUnsafeBytes({ tls.write($0) }) else {
                return .tls(TLSFailure(kind: .other, description: "the TLS connection broke"))
            }
            return flushTLS()
        }
        return sendRaw(bytes)
    }

    private func sendRaw(_ bytes: [UInt8]) -> HTTPFetchFailure? {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                offset += count
            } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                guard wait(for: Int16(POLLOUT)) else { return .timedOut(call.request.timeout) }
            } else {
                return .truncated
            }
        }
        return nil
    }

    private func flushTLS() -> HTTPFetchFailure? {
        guard let tls else { return nil }
        var buffer = [UInt8](repeating: 0, count: 16384)
        while tls.outputCount > 0 {
            let count = buffer.withUnsafeMutableBytes { tls.takeOutput(into: $0) }
            guard count > 0 else { return nil }
            if let failure = sendRaw(Array(buffer[0..<count])) { return failure }
        }
        return nil
    }

    /// Waits for `events` on the socket until the deadline; false when the deadline passed or the call was
    /// answered elsewhere.
    private func wait(for events: Int16) -> Bool {
        while true {
            let left = deadline - .now
            guard left > .zero, !call.isAnswered else { return false }
            let milliseconds = Int32(clamping: left.components.seconds * 1000
                + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            var entries = [pollfd(fd: socket, events: events, revents: 0), pollfd(fd: call.wake, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&entries, 2, milliseconds)
            if ready < 0, errno != EINTR { return false }
            if entries[1].revents != 0 { return false }
            if entries[0].revents != 0 { return true }
        }
    }

    // MARK: Words

    private func requestHead(port: Int) -> String {
        let url = call.request.url
        var path = url.path(percentEncoded: true)
        if path.isEmpty { path = "/" }
        if let query = url.query(percentEncoded: true) { path += "?" + query }
        let bracketed = call.host.contains(":") ? "[\(call.host)]" : call.host
        let host = port == (call.secure ? 443 : 80) ? bracketed : "\(bracketed):\(port)"
        var head = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nAccept: application/json\r\n"
        for header in call.request.headers {
            // A CR or LF in a header would start another header or the body: they are dropped.
            let name = header.name.filter { $0 != "\r" && $0 != "\n" && $0 != ":" }
            let value = header.value.filter { $0 != "\r" && $0 != "\n" }
            head += "\(name): \(value)\r\n"
        }
        return head + "Connection: close\r\n\r\n"
    }

    static func connectFailure(_ error: Int32, host: String, port: Int) -> String {
        switch error {
        case ECONNREFUSED: "\(host):\(port) refused the connection (nothing listens on that port)"
        case ETIMEDOUT: "\(host):\(port) did not answer (timed out); check the network"
        case ENETUNREACH, EHOSTUNREACH: "\(host):\(port) cannot be reached from here (no route); check the network"
        default: "\(host):\(port): \(String(cString: strerror(error)))"
        }
    }

    /// Fills `storage` with a numeric address and port; the address family, or -1 if the text is not an address.
    private static func socketAddress(_ address: String, port: Int, into storage: inout sockaddr_storage,
                                      length: inout socklen_t) -> Int32 {
        withUnsafeMutableBytes(of: &storage) { raw -> Int32 in
            var v4 = sockaddr_in()
            if inet_pton(AF_INET, address, &v4.sin_addr) == 1 {
                v4.sin_family = sa_family_t(AF_INET)
                v4.sin_port = in_port_t(UInt16(port).bigEndian)
                raw.storeBytes(of: v4, as: sockaddr_in.self)
                length = socklen_t(MemoryLayout<sockaddr_in>.size)
                return AF_INET
            }
            var v6 = sockaddr_in6()
            if inet_pton(AF_INET6, address, &v6.sin6_addr) == 1 {
                v6.sin6_family = sa_family_t(AF_INET6)
                v6.sin6_port = in_port_t(UInt16(port).bigEndian)
                raw.storeBytes(of: v6, as: sockaddr_in6.self)
                length = socklen_t(MemoryLayout<sockaddr_in6>.size)
                return AF_INET6
            }
            return -1
        }
    }
}
