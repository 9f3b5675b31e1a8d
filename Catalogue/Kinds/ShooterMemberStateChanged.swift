import BCKindsGenerator

extension Catalogue {
    static let shooterMemberStateChanged = Kind(
        81, "shooterMemberStateChanged", "shooter mini-game member state",
        app: "ShooterMemberStateChanged", .appModel, Struct(
        "ShooterMemberStateChanged",
        doc: """
            t=81 `ShooterMemberStateChanged`: a member's state in the shooter mini-game changed.

            App model only; no capture. The status and type codes are kept as the integers the server sends, since
            no source names their values.
            """,
        [
            .required("member_status", "memberStatus", .int, "the member's state code."),
            .required("member_type", "memberType", .int, "the member's role code (host or guest, by the name)."),
            .required("season_id", "seasonID", .int, "the shooter season."),
            .required("team_id", "teamID", .int, "the member's team."),
            .required("member_user_id", "memberUserID", .string, "the member's user id."),
        ]))
}
