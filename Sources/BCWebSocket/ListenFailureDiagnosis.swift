import Foundation

/// Why an address cannot be listened on, in words: libwebsockets only says that its context failed, so the
/// bind it attempted is tried once more here, with the same address and port, to learn the system's reason.
enum ListenFailureDiagnosis {
    /// "port 8080 on 127.0.0.1 is already in use by another process", "permission denied…", and so on.
    static func reason(host: String, port: Int) -> String {
        var storage = sockaddr_storage()
        let family: Int32
        let length: socklen_t
        if AddressResolver.isIPv4(host) {
            family = AF_INET
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(clamping: port).bigEndian)
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return notNumeric(host) }
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
        } else {
            family = AF_INET6
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(clamping: port).bigEndian)
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { return notNumeric(host) }
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in6.self) }
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return "no socket could be made: \(String(cString: strerror(errno)))" }
        defer { close(fd) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound != 0 else { return "the listening socket could not be set up (the port looked free a moment later: try again)" }
        switch errno {
        case EADDRINUSE: return "port \(port) on \(host) is already in use by another process"
        case EACCES: return "permission denied: ports below 1024 need privileges"
        case EADDRNOTAVAIL: return "\(host) is not an address of this machine"
        case let code: return String(cString: strerror(code))
        }
    }

    private static func notNumeric(_ host: String) -> String {
        "\(host) is not a numeric IP address (use 127.0.0.1, ::1 or 0.0.0.0)"
    }
}
