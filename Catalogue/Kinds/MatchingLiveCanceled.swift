import BCKindsGenerator

extension Catalogue {
    static let matchingLiveCanceled = Kind(
        83, "matchingLiveCanceled", "live matching canceled", app: "MatchingLiveCanceled", .appModel, Struct(
        "MatchingLiveCanceled",
        doc: """
            t=83 `MatchingLiveCanceled`: a live matching was canceled.

            App model only; no capture.
            """,
        [
            .required("user_id", "userID", .string, "the user whose matching was canceled."),
        ]))
}
