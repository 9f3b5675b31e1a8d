extension BCResponse {
    /// t=28 `LinkedLiveEnded`: the live this live was linked to has ended.
    ///
    /// From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
    public struct LinkedLiveEnded: BCPayload {
        /// `linked_live`: the live that ended.
        public var linkedLive: LinkedLive

        public init(linkedLive: LinkedLive) {
            self.linkedLive = linkedLive
        }

        enum CodingKeys: String, CodingKey {
            case linkedLive = "linked_live"
        }

        /// The ended live: only its id and its owner's name, fewer keys than t=26's `LinkedLive`.
        public struct LinkedLive: Hashable, Sendable, Codable {
            /// `live_id`: the live's id.
            @ForcibleString public var liveID: String
            /// `owner_name`: the streamer's display name.
            @ForcibleString public var ownerName: String

            public init(liveID: String, ownerName: String) {
                self.liveID = liveID
                self.ownerName = ownerName
            }

            enum CodingKeys: String, CodingKey {
                case liveID = "live_id"
                case ownerName = "owner_name"
            }
        }
    }
}
