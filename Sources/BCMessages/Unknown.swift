extension BCResponse {
    /// A message whose `t` the model does not know: normal traffic (new kinds appear without notice), kept
    /// whole so nothing is lost, like swift-protobuf's `UNRECOGNIZED`.
    public struct Unknown: Hashable, Sendable, Codable {
        /// The message's kind number.
        public var t: Int
        /// The whole message, `t` included.
        public var json: [String: JSONValue]

        /// A message of kind `t`; `json` is the whole message, `t` included.
        public init(t: Int, json: [String: JSONValue]) {
            self.t = t
            self.json = json
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: BCResponse.TypeKey.self)
            t = try container.decode(ForcibleInt.self, forKey: .t).wrappedValue
            json = try [String: JSONValue](from: decoder)
        }

        public func encode(to encoder: any Encoder) throws {
            try json.encode(to: encoder)
        }
    }
}
