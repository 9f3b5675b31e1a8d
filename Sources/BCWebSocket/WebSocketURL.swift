/// A `ws://` or `wss://` address, split into the parts libwebsockets takes separately.
///
/// Parsed by hand rather than with Foundation's `URL` so the rules are the WebSocket ones: only the
/// two schemes, no user info, no fragment, and a path that always starts with `/` (the query stays
/// part of it, as it is sent on the request line).
public struct WebSocketURL: Sendable, Hashable, CustomStringConvertible {
    /// `true` for `wss` (TLS), `false` for `ws`.
    public var isSecure: Bool
    /// The host name or address literal, without IPv6 brackets.
    public var host: String
    /// The TCP port: the one written in the URL, else 443 for `wss` and 80 for `ws`.
    public var port: Int
    /// The request target: path and query, always starting with `/`.
    public var path: String

    /// The address of `host`, on `port` or else the scheme's default one; a `path` without its leading `/` gets one.
    public init(isSecure: Bool, host: String, port: Int? = nil, path: String = "/") {
        self.isSecure = isSecure
        self.host = host
        self.port = port ?? (isSecure ? 443 : 80)
        self.path = path.hasPrefix("/") ? path : "/" + path
    }

    /// Parses `ws://host[:port][/path][?query]` or the `wss` form; `nil` for anything else.
    public init?(string: String) {
        let secure: Bool
        var rest: Substring
        let lowered = string.lowercased()
        if lowered.hasPrefix("wss://") {
            secure = true
            rest = string.dropFirst(6)
        } else if lowered.hasPrefix("ws://") {
            secure = false
            rest = string.dropFirst(5)
        } else {
            return nil
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var target = String(rest[authorityEnd...])
        if target.isEmpty { target = "/" } else if target.hasPrefix("?") { target = "/" + target }
        guard !authority.isEmpty, !authority.contains("@") else { return nil }

        let hostPart: Substring
        var portPart: Substring?
        if authority.hasPrefix("[") {
            // IPv6 literal: [::1] or [::1]:8080
            guard let close = authority.firstIndex(of: "]") else { return nil }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portPart = after.dropFirst()
            }
        } else {
            let pieces = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            hostPart = pieces[0]
            if pieces.count == 2 { portPart = pieces[1] }
        }
        guard !hostPart.isEmpty else { return nil }
        var port: Int?
        if let portPart {
            guard let value = Int(portPart), (1...65_535).contains(value) else { return nil }
            port = value
        }
        self.init(isSecure: secure, host: String(hostPart), port: port, path: target)
    }

    public var description: String {
        "\(isSecure ? "wss" : "ws")://\(authority)\(path)"
    }

    /// `host` or `host:port` (brackets around an IPv6 literal), as the `Host` header wants it:
    /// the port is left out when it is the scheme's default.
    var authority: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let defaultPort = isSecure ? 443 : 80
        return port == defaultPort ? shownHost : "\(shownHost):\(port)"
    }
}
