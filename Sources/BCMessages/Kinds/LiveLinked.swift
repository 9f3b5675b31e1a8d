extension BCResponse {
    /// t=26 `LiveLinked`: this live was linked to another live, so viewers can hop between the two.
    ///
    /// From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
    public struct LiveLinked: BCPayload {
        /// `linked_live`: the other live, the one this live is now linked to.
        public var linkedLive: LinkedLive
        /// `live`: this live, described the same way.
        public var live: LinkedLive

        public init(linkedLive: LinkedLive, live: LinkedLive) {
            self.linkedLive = linkedLive
            self.live = live
        }

        enum CodingKeys: String, CodingKey {
            case linkedLive = "linked_live"
            case live
        }

        /// One side of a link: a live and its owner, the app's `LinkedLive`.
        public struct LinkedLive: Hashable, Sendable, Codable {
            /// `live_id`: the live's id.
            @ForcibleString public var liveID: String
            /// `owner_id`: the streamer's user id.
            @ForcibleString public var ownerID: String
            /// `owner_name`: the streamer's display name.
            @ForcibleString public var ownerName: String
            /// `owner_image_url`: the streamer's profile image URL.
            @ForcibleString public var ownerImageURL: String
            /// `owner_badge_image_url`: the streamer's badge image URL (probably often `""`, like `burl`).
            @ForcibleString public var ownerBadgeImageURL: String

            public init(liveID: String, ownerID: String, ownerName: String, ownerImageURL: String,
                        ownerBadgeImageURL: String) {
                self.liveID = liveID
                self.ownerID = ownerID
                self.ownerName = ownerName
                self.ownerImageURL = ownerImageURL
                self.ownerBadgeImageURL = ownerBadgeImageURL
            }

            enum CodingKeys: String, CodingKey {
                case liveID = "live_id"
                case ownerID = "owner_id"
                case ownerName = "owner_name"
                case ownerImageURL = "owner_image_url"
                case ownerBadgeImageURL = "owner_badge_image_url"
            }
        }
    }
}
