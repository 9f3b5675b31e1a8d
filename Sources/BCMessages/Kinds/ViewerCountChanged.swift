extension BCResponse {
    /// t=23 `LiveViewerNumChanged`: the live's viewer counters changed.
    public struct ViewerCountChanged: BCPayload {
        /// `online_viewer_num`: viewers watching now.
        @ForcibleInt public var onlineViewerCount: Int
        /// `total_viewer_num`: viewers since the live started.
        @ForcibleInt public var totalViewerCount: Int

        public init(onlineViewerCount: Int, totalViewerCount: Int) {
            self.onlineViewerCount = onlineViewerCount
            self.totalViewerCount = totalViewerCount
        }

        enum CodingKeys: String, CodingKey {
            case onlineViewerCount = "online_viewer_num"
            case totalViewerCount = "total_viewer_num"
        }
    }
}
