import BCKindsGenerator

extension Catalogue {
    static let emomoQuestStateChanged = Kind(
        109, "emomoQuestStateChanged", "emomo quest game on or off",
        app: "EmomoQuestGameStateChanged", .appModel, Struct(
        "EmomoQuestStateChanged",
        doc: """
            t=109 `EmomoQuestGameStateChanged`: the emomo quest mini-game started or stopped.

            App model only; no capture.
            """,
        [
            .required("gift_event_id", "giftEventID", .int, "the gift event the quest belongs to."),
            .required("is_questing", "isQuesting", .bool, "a quest is running."),
        ]))
}
