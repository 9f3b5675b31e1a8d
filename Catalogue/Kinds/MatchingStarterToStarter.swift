import BCKindsGenerator

extension Catalogue {
    static let matchingStarterToStarter = Kind(
        90, "matchingStarterToStarter", "matched starter to starter",
        app: "MatchingStarterToStarter", .appModel, Struct(
        "MatchingStarterToStarter",
        doc: """
            t=90 `MatchingStarterToStarter`: this live, having started a matching, was matched with another
            starter's live.

            App model only; no capture; meaning guessed from the event name.
            """,
        [
            .required("matched_live_id", "matchedLiveID", .string, "the live matched with."),
        ]))
}
