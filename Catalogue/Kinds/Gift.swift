import BCKindsGenerator

extension Catalogue {
    static let gift = Kind(35, "gift", "gift sent", app: "GiftCommentReceived", .captured, Struct(
        "Gift", extras: ["Kinds/Gift+AvatarUserIDList.swift"],
        doc: """
            t=35 `GiftCommentReceived`: a viewer sent a gift.

            Captured. Wire quirks: the numbers (`coins`, `gift_id`, `gift_type`, `total_gift_coins`,
            `live_sent_gift_id`, ...) come as strings; `count` as `"8"` or `1`; `slot_id` as the number `0`.
            Captures differ a lot in which keys they carry, so only who sent what, and how many, is required.
            No capture has `created_at`.
            """,
        [
            .user("Who sent it: `u`, `ac`, `iurl`, `burl`."),
            .required("gift_id", "giftID", .string, "the gift item's id."),
            .required("gift_title", "giftTitle", .string, "the gift's name (\"小さなハート\")."),
            .optional("gift_type", "giftType", .int, "the kind of gift item (`0` for an ordinary one)."),
            .optional("gift_small_image_url", "giftSmallImageURL", .string, "the gift's small image."),
            .optional("gift_large_image_url", "giftLargeImageURL", .string, "the gift's large image."),
            .required("coins", "coins", .int, "the price of one gift, in coins."),
            .required("count", "count", .int, "how many were sent at once."),
            .optional("total_gift_coins", "totalGiftCoins", .int, "the running total of coins gifted in this live."),
            .optional("nameplate_enabled", "nameplateEnabled", .int,
                "whether the sender's nameplate is shown (`1`); an int in the app's model."),
            .optional("pause_duration", "pauseDuration", .double, "how long the gift animation pauses, in seconds."),
            .optional("orientations", "orientations", .int, "the screen orientations the animation is made for."),
            .optional("should_play_animation", "shouldPlayAnimation", .bool, "play the gift's animation."),
            .optional("is_moderator", "isModerator", .bool, "the sender moderates this live."),
            .optional("is_cheerleader", "isCheerleader", .bool, "the sender is a cheerleader of this streamer."),
            .optional("became_cheerleader", "becameCheerleader", .bool, "this gift made the sender a cheerleader."),
            .optional("ils", "isLastSent", .bool, "this is the last gift of a run sent in a row."),
            .optional("live_sent_gift_id", "liveSentGiftID", .string,
                "this sending's id, kept digit for digit however long."),
            .optional("slot_id", "slotID", .string, "the slot the gift is shown in (`0` on the wire)."),
            .optional("speech", "speech", .string, "the text-to-speech line (\"ねこまるが小さなハートを贈りました\")."),
            .optional("is_streaming_collab", "isStreamingCollab", .bool,
                "the live was in a collab when the gift was sent (`0`/`1`; public captures of 2022)."),
            .optional("collab_streamer_ac", "collabStreamerName", .string,
                "the collab streamer's display name, during a collab."),
            .optional("avatar_body_image_url", "avatarBodyImageURL", .string, "the sender's avatar image."),
            .optional("avatar_user_ids", "avatarUserIDs", .string,
                "the ids of the users whose avatars the gift shows, comma-separated."),
            .optional("effect_id", "effectID", .string, "the effect the gift plays."),
            .optional("pose_id", "poseID", .string, "the avatar pose the gift plays."),
            .optional("message", "message", .string, "a message sent with the gift."),
            .optional("share_text", "shareText", .string, "the text offered for sharing the gift."),
            .optional("p", "point", .int, "the points the gift earned."),
            .optional("yell_rank", "yellRank", .openEnum("YellRank"), "the sender's cheer rank."),
            .optional("yell_level", "yellLevel", .int, "the sender's cheer level."),
            .optional("rankings", "rankings", .objects("GiftRanking"), "the event rankings this gift moved."),
            .optional("photo_gift_id", "photoGiftID", .string, "the photo's id, on a photo gift."),
            .optional("is_photo_gift", "isPhotoGift", .bool, "the gift carries a photo (avatar snapshot)."),
            .optional("photo_gift_image_url", "photoGiftImageURL", .string, "the photo, on a photo gift."),
        ]))
}
