import BCKindsGenerator

extension Catalogue {
    static let commentAttributes = Struct(
        "CommentAttributes", file: "CommentAttributes.generated.swift",
        doc: """
            The optional keys of the app's comment class, shared by every kind it parses: comments (t=1), joins
            (t=3), follows (t=4) and memos (t=19). Each of those structs exposes these as its own properties
            (`comment.speech`, `join.isModerator`) through dynamic member lookup.
            """,
        [
            .optional("speech", "speech", .string, "the text-to-speech line, `\"\"` or \"name text\"."),
            .optional("is_moderator", "isModerator", .bool, "the user moderates this live."),
            .optional("is_cheerleader", "isCheerleader", .bool, "the user is a cheerleader of this streamer."),
            .optional("yell_rank", "yellRank", .forcibleOpenEnum("YellRank"), "the user's cheer rank."),
            .optional("yell_level", "yellLevel", .int, "the user's cheer level."),
            .optional("linked_live_owner_name", "linkedLiveOwnerName", .string,
                "set when the user came over from a linked live."),
            .optional("description", "descriptionText", .string, "an extra line shown under the message."),
            .optional("collab_streamer_ac", "collabStreamerName", .string,
                "the collab streamer's display name, during a collab."),
            .optional("avatar_body_image_url", "avatarBodyImageURL", .string, "the user's avatar image."),
            .optional("created_at", "createdAt", .int,
                "when it was sent, unix seconds. A wire extra, not in the app's class."),
            .optional("d", "d", .int, "always 1 in captures; meaning unknown. A wire extra."),
            .optional("push_image_url", "pushImageURL", .string, "an image for push notifications. A wire extra."),
            .optional("vip_rank", "vipRank", .int, "read by one third-party client; not confirmed elsewhere."),
            .optional("profile_frame_image_url", "profileFrameImageURL", .string,
                "read by one third-party client; not confirmed elsewhere."),
        ])
}
