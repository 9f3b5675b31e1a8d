/// What a server answered to an `HTTPFetchRequest`: any status (a 404 is an answer, not a failure) and the
/// body, at most the request's `maxBodySize` bytes.
public struct HTTPFetchResponse: Sendable, Hashable {
    /// The HTTP status code, whatever it is.
    public var status: Int
    /// The body's bytes, at most the request's `maxBodySize`.
    public var body: [UInt8]

    /// An answer with `status` and `body`.
    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}
