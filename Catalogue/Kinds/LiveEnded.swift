import BCKindsGenerator

extension Catalogue {
    static let liveEnded = Kind(8, "liveEnded", "stream ended", app: "LiveEnded", .captured, Struct(
        "LiveEnded",
        doc: """
            t=8 `LiveEnded`: the stream ended. Usually just `{"t":8}`; a listener stops on it.
            """,
        [
            .optional("delay", "delay", .object("Delay"),
                "a reconnect hint some servers attach, absent from every capture."),
        ],
        nested: [
            Struct(
                "Delay",
                doc: """
                    A jittered back-off for clients, in camelCase keys unlike every other key of the service.
                    """,
                [
                    .required("uniMin", "uniformMin", .double, "the lower bound of the uniform jitter."),
                    .required("uniMax", "uniformMax", .double, "the upper bound of the uniform jitter."),
                    .required("expMultiplier", "exponentialMultiplier", .double,
                        "the exponential back-off multiplier."),
                ]),
        ]))
}
