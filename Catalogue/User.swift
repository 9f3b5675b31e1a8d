import BCKindsGenerator

extension Catalogue {
    static let user = Struct(
        "User", file: "User.generated.swift",
        doc: """
            The user block that most user-attributed kinds carry, flattened into the message: `u`, `ac`, `iurl`,
            `burl`. One type for every kind, so code that shows "who did it" works for all of them.
            """,
        [
            .required("u", "id", .string,
                "the user's id. A string on the wire, but a number is accepted and kept digit for digit."),
            .required("ac", "name", .string, "the display name."),
            .optional("iurl", "profileImageURL", .string,
                "the profile image URL (often `\"\"`); absent from some kinds."),
            .optional("burl", "badgeImageURL", .string, "the badge image URL (often `\"\"`); absent from some kinds."),
        ])
}
