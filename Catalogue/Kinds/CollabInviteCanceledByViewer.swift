import BCKindsGenerator

extension Catalogue {
    static let collabInviteCanceledByViewer = Kind(
        75, "collabInviteCanceledByViewer", "collab invite canceled by the viewer",
        app: "CollabInviteCanceledByViewer", .appModel, Struct(
        "CollabInviteCanceledByViewer",
        doc: """
            t=75 `CollabInviteCanceledByViewer`: the invited viewer declined or withdrew from a collab (co-stream) invite.

            From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
            """,
        [
            .user("The viewer who canceled: `u`, `ac`, `iurl`, `burl`."),
            .required("collab_type", "collabType", .openEnum("CollabType"), "the kind of collab the invite was for."),
        ]))
}
