/// What a server answered to an `HTTPFetchRequest`: any status (a 404 is an answer, not a failure) and the
/// body, at most the request's `maxBodySize` bytes.
public struct HTTPFetchResponse: Sendable, Hashable {
    public var status: Int
    public var body: [UInt8]

    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}
