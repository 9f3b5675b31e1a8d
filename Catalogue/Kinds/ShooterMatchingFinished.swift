import BCKindsGenerator

extension Catalogue {
    static let shooterMatchingFinished = Kind(
        107, "shooterMatchingFinished", "shooter matching finished", app: "ShooterMatchingFinished", .appModel, Struct(
        "ShooterMatchingFinished",
        doc: """
            t=107 `ShooterMatchingFinished`: the shooter mini-game's matching finished.

            App model only; no capture.
            """,
        [
            .required("time", "time", .int,
                "a time the app declares as a long; its unit and meaning (moment or duration) are not known."),
        ]))
}
