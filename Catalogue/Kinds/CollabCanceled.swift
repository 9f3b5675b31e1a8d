import BCKindsGenerator

extension Catalogue {
    static let collabCanceled = Kind(
        12, "collabCanceled", "collab request canceled", app: "CollabCanceled", .appModel, Struct(
        "CollabCanceled",
        doc: """
            t=12 `CollabCanceled`: a collab (co-stream) request was canceled.

            From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
            """,
        [
            .user("Who canceled: `u`, `ac`, `iurl`, `burl`."),
            .required("canceled_user_id", "canceledUserID", .string, "the id of the user whose request was canceled."),
        ]))
}
