import BCKindsGenerator

extension Catalogue {
    static let emomoRunStateChanged = Kind(
        65, "emomoRunStateChanged", "emomo-run mini-game on or off", app: "EmomoRunStateChanged", .appModel, Struct(
        "EmomoRunStateChanged",
        doc: """
            t=65 `EmomoRunStateChanged`: the emomo-run mini-game started or stopped.

            From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
            """,
        [
            .required("gift_event_id", "giftEventID", .int,
                "the gift event the game belongs to (an int in the app's model)."),
            .required("is_running", "isRunning", .bool, "the game is running now."),
        ]))
}
