import BCKindsGenerator

extension Catalogue {
    static let matchingLive = Kind(84, "matchingLive", "matched with a live", app: "MatchingLive", .appModel, Struct(
        "MatchingLive",
        doc: """
            t=84 `MatchingLive`: this live was matched with another live; shown as a system comment.

            App model only; no capture.
            """,
        [
            .required("cm", "text", .string, "the notice text shown in the comment list."),
            .required("speech", "speech", .string, "the text-to-speech line."),
            .required("matched_live_id", "matchedLiveID", .string, "the live matched with."),
        ]))
}
