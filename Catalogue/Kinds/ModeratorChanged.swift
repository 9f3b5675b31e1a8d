import BCKindsGenerator

extension Catalogue {
    static let moderatorChanged = Kind(
        51, "moderatorChanged", "moderator appointed or removed", app: "ModeratorChange", .appModel, Struct(
        "ModeratorChanged",
        doc: """
            t=51 `ModeratorChange`: the streamer appointed or removed a moderator.

            From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
            """,
        [
            .required("moderator_user_id", "moderatorUserID", .string, "the id of the user appointed or removed."),
            .required("is_appoint", "isAppointed", .bool, "true when the user was appointed, false when removed."),
        ]))
}
