extension BCResponse {
    /// t=39 `ShowViewerAnnouncementPopup`: viewers should be shown an announcement popup.
    ///
    /// From the 2022 app's model; no capture seen.
    public struct AnnouncementPopup: BCPayload {
        /// `announcement_popup_url`: the page the popup shows.
        @ForcibleString public var announcementPopupURL: String

        public init(announcementPopupURL: String) {
            self.announcementPopupURL = announcementPopupURL
        }

        enum CodingKeys: String, CodingKey {
            case announcementPopupURL = "announcement_popup_url"
        }
    }
}
