import BCKindsGenerator

extension Catalogue {
    static let announcementPopup = Kind(
        39, "announcementPopup", "announcement popup", app: "ShowViewerAnnouncementPopup", .appModel, Struct(
        "AnnouncementPopup",
        doc: """
            t=39 `ShowViewerAnnouncementPopup`: viewers should be shown an announcement popup.

            From the 2022 app's model; no capture seen.
            """,
        [
            .required("announcement_popup_url", "announcementPopupURL", .string, "the page the popup shows."),
        ]))
}
