import Foundation

/// One HTTP(S) GET as `HTTPFetcher` performs it: where, which headers, how long it may take, how large an
/// answer is accepted, and how the server's certificate is checked (the same `TLS` as a `wss` connection, so
/// one `--ca-file` serves both).
public struct HTTPFetchRequest: Sendable, Hashable {
    /// One request header; the value is sent as given (no folding, no encoding).
    public struct Header: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// An `http` or `https` URL with a host.
    public var url: URL
    public var headers: [Header]
    /// The whole exchange: DNS, TCP, TLS, request, answer and body.
    public var timeout: Duration
    /// Largest body accepted; a larger one fails the fetch with `.bodyTooLarge` (the server is not trusted).
    public var maxBodySize: Int
    /// Certificate verification for `https`; ignored for `http`.
    public var tls: WebSocketClientConfiguration.TLS

    public init(url: URL, headers: [Header] = [], timeout: Duration = .seconds(10), maxBodySize: Int = 1 << 20,
                tls: WebSocketClientConfiguration.TLS = .system) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.maxBodySize = maxBodySize
        self.tls = tls
    }
}
