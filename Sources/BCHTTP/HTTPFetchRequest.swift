import BCWebSocket
import Foundation

/// One HTTP(S) GET as `HTTPFetcher` performs it: where, which headers, how long it may take, how large an
/// answer is accepted, and how the server's certificate is checked (the same `TLS` as a `wss` connection, so
/// one `--ca-file` serves both).
public struct HTTPFetchRequest: Sendable, Hashable {
    /// One request header; the value is sent as given (no folding, no encoding).
    public struct Header: Sendable, Hashable {
        /// The header's name, like `cookie`.
        public var name: String
        /// The header's value, sent as given.
        public var value: String

        /// The header `name: value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// An `http` or `https` URL with a host.
    public var url: URL
    /// The headers sent with the request, in order.
    public var headers: [Header]
    /// The whole exchange: DNS, TCP, TLS, request, answer and body.
    public var timeout: Duration
    /// Largest body accepted; a larger one fails the fetch with `.bodyTooLarge` (the server is not trusted).
    public var maxBodySize: Int
    /// Certificate verification for `https`; ignored for `http`.
    public var tls: WebSocketClientConfiguration.TLS

    /// A GET of `url` that may take 10 s and read 1 MiB, with the system's trust, unless told otherwise.
    public init(url: URL, headers: [Header] = [], timeout: Duration = .seconds(10), maxBodySize: Int = 1 << 20,
                tls: WebSocketClientConfiguration.TLS = .system) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.maxBodySize = maxBodySize
        self.tls = tls
    }
}
