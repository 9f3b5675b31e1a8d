extension BCResponse {
    /// t=110 `EmomoQuestGameGiftReceived`: a gift sent in the emomo quest mini-game.
    ///
    /// App model only; no capture. The app keeps this message as raw JSON and models none of its keys, so
    /// neither does BCStream: every key but `t` is kept as it came, nothing is lost, and encoding writes them
    /// back unchanged.
    public struct EmomoQuestGift: BCPayload {
        /// Every key of the message except `t`, uninterpreted.
        public var fields: [String: JSONValue]

        /// A message with these keys (`t` aside).
        public init(fields: [String: JSONValue] = [:]) {
            self.fields = fields
        }

        /// The value at `key`, nil when the message has no such key.
        public subscript(key: String) -> JSONValue? {
            fields[key]
        }

        public init(from decoder: any Decoder) throws {
            var fields = try [String: JSONValue](from: decoder)
            fields.removeValue(forKey: BCResponse.TypeKey.t.stringValue)
            self.fields = fields
        }

        public func encode(to encoder: any Encoder) throws {
            // `t` is the message's own, written by `BCResponse`; a stray one in `fields` must not overwrite it.
            try fields.filter { $0.key != BCResponse.TypeKey.t.stringValue }.encode(to: encoder)
        }
    }
}
