import BCKindsGenerator

extension Catalogue {
    static let collabInviteCanceledByStreamer = Kind(
        74, "collabInviteCanceledByStreamer", "collab invite canceled by the streamer",
        app: "CollabInviteCanceledByStreamer", .appModel, Struct(
        "CollabInviteCanceledByStreamer",
        doc: """
            t=74 `CollabInviteCanceledByStreamer`: the streamer withdrew a collab (co-stream) invite.

            From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
            """,
        [
            .user("The streamer who withdrew it: `u`, `ac`, `iurl`, `burl`."),
            .required("collab_type", "collabType", .openEnum("CollabType"), "the kind of collab the invite was for."),
            .required("invited_user_id", "invitedUserID", .string,
                "the id of the viewer whose invite was withdrawn (note `invited_`, where t=73 has `invite_user_id`)."),
        ]))
}
