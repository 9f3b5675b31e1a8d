import BCKindsGenerator

extension Catalogue {
    static let stopBroadcasting = Kind(
        60, "stopBroadcasting", "stop-broadcast order with a message",
        app: "StopBroadcasting", .appModelMeaningGuessed, Struct(
        "StopBroadcasting",
        doc: """
            t=60 `StopBroadcasting`: an order to the streamer to stop broadcasting, with a message saying why.

            From the 2022 app's model; the meaning is guessed from its name (a streamer-side message).
            """,
        [
            .required("msg", "message", .string, "the message to show the streamer."),
        ]))
}
