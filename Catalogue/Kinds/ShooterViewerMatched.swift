import BCKindsGenerator

extension Catalogue {
    static let shooterViewerMatched = Kind(
        106, "shooterViewerMatched", "shooter viewer matched", app: "ShooterViewerMatched", .appModel, Struct(
        "ShooterViewerMatched",
        doc: """
            t=106 `ShooterViewerMatched`: a viewer was matched into the shooter mini-game.

            App model only; no capture. Plain fields, not the shared user block: the keys differ (`user_id`, `name`,
            `profile_image_url`).
            """,
        [
            .required("name", "name", .string, "the matched viewer's display name."),
            .required("profile_image_url", "profileImageURL", .string, "the matched viewer's profile image."),
            .required("user_id", "userID", .string,
                "the matched viewer's user id. The app declares it an int here, unlike every other user id; it is kept as a String like the others, digit for digit, whichever form the wire uses."),
        ]))
}
