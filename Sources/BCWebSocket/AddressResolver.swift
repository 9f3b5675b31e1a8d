#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Turns a host name into numeric addresses off the lws service thread: this lws build has no
/// async DNS, so handing it a name would block every connection on the loop while it resolves.
package enum AddressResolver {
    /// Resolves on a fresh detached OS thread (getaddrinfo blocks, so never on the Swift
    /// concurrency pool) and hands the result to `completion` on that thread.
    static func resolve(
        host: String,
        completion: @escaping @Sendable (Result<[String], WebSocketConnectFailure>) -> Void
    ) {
        if isNumeric(host) {
            completion(.success([host]))
            return
        }
        let thread = Thread {
            completion(resolveNow(host: host))
        }
        thread.name = "BCWebSocket.dns"
        thread.start()
    }

    static func isIPv4(_ host: String) -> Bool {
        var v4 = in_addr()
        return inet_pton(AF_INET, host, &v4) == 1
    }

    package static func isNumeric(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// Blocking resolution: every distinct address, in getaddrinfo's (RFC 6724) order.
    package static func resolveNow(host: String) -> Result<[String], WebSocketConnectFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let list else {
            let reason = status == 0 ? "no address" : String(cString: gai_strerror(status))
            return .failure(.dnsFailed(host: host, reason: reason))
        }
        defer { freeaddrinfo(list) }
        var addresses: [String] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            if let text = numericString(current.pointee), !addresses.contains(text) {
                addresses.append(text)
            }
            entry = current.pointee.ai_next
        }
        return addresses.isEmpty ? .failure(.dnsFailed(host: host, reason: "no usable address")) : .success(addresses)
    }

    private static func numericString(_ info: addrinfo) -> String? {
        guard let address = info.ai_addr else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let ok: Bool
        switch info.ai_family {
        case AF_INET:
            ok = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                var raw = v4.pointee.sin_addr
                return inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count)) != nil
            }
        case AF_INET6:
            ok = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                var raw = v6.pointee.sin6_addr
                return inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count)) != nil
            }
        default:
            ok = false
        }
        guard ok else { return nil }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
