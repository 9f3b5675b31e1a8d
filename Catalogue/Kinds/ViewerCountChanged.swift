import BCKindsGenerator

extension Catalogue {
    static let viewerCountChanged = Kind(
        23, "viewerCountChanged", "viewer counters", app: "LiveViewerNumChanged", .appModel, Struct(
        "ViewerCountChanged",
        doc: """
            t=23 `LiveViewerNumChanged`: the live's viewer counters changed.
            """,
        [
            .required("online_viewer_num", "onlineViewerCount", .int, "viewers watching now."),
            .required("total_viewer_num", "totalViewerCount", .int, "viewers since the live started."),
        ]))
}
