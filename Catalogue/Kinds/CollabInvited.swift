import BCKindsGenerator

extension Catalogue {
    static let collabInvited = Kind(
        73, "collabInvited", "streamer invited a viewer to collab", app: "CollabInvited", .appModel, Struct(
        "CollabInvited",
        doc: """
            t=73 `CollabInvited`: the streamer invited a viewer to join a collab (co-stream).

            From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
            """,
        [
            .user("The streamer who invited: `u`, `ac`, `iurl`, `burl`."),
            .required("collab_type", "collabType", .openEnum("CollabType"), "a call or a co-stream."),
            .required("invite_user_id", "invitedUserID", .string, "the id of the invited viewer."),
        ]))
}
