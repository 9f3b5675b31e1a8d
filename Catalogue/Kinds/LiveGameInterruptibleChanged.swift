import BCKindsGenerator

extension Catalogue {
    static let liveGameInterruptibleChanged = Kind(
        114, "liveGameInterruptibleChanged", "live-game interruptible flag",
        app: "LiveGameInterruptibleChanged", .appModel, Struct(
        "LiveGameInterruptibleChanged",
        doc: """
            t=114 `LiveGameInterruptibleChanged`: whether the running live-game may be interrupted changed.

            App model only; no capture. `interruptible` is declared a JSON boolean, but read from 0/1 and "0"/"1"
            too; encoded as 0/1 like every flag.
            """,
        [
            .required("interruptible", "isInterruptible", .bool, "the live-game may be interrupted now."),
            .required("sent_at", "sentAt", .int,
                "when the server sent the change (a long in the app; unix milliseconds, unconfirmed)."),
        ]))
}
