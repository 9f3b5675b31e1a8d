import BCKindsGenerator

extension Catalogue {
    static let feverChanged = Kind(56, "feverChanged", "fever meter", app: "FeverValueChanged", .appModel, Struct(
        "FeverChanged",
        doc: """
            t=56 `FeverValueChanged`: the live's fever meter moved.

            From the 2022 app's model; no capture seen, so any scalar may come as a number or a string.
            """,
        [
            .required("current_meter", "currentMeter", .int, "the meter's value now."),
            .required("max_meter", "maxMeter", .int, "the value at which the meter is full."),
            .required("starts_at", "startsAt", .int,
                "when the fever starts, unix time (a long in the app; seconds or milliseconds unknown)."),
            .required("ends_at", "endsAt", .int, "when the fever ends, in the same unit as `starts_at`."),
        ]))
}
