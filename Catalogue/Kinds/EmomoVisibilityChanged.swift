import BCKindsGenerator

extension Catalogue {
    static let emomoVisibilityChanged = Kind(
        108, "emomoVisibilityChanged", "avatar shown or hidden", app: "EmomoVisibilityChanged", .appModel, Struct(
        "EmomoVisibilityChanged",
        doc: """
            t=108 `EmomoVisibilityChanged`: the streamer's avatar (emomo) was shown or hidden.

            App model only; no capture. Declared a JSON boolean, but read from 0/1 and "0"/"1" too, as most of the
            service's flags arrive; encoded as 0/1 like every flag.
            """,
        [
            .required("is_visible", "isVisible", .bool, "the avatar is shown."),
        ]))
}
