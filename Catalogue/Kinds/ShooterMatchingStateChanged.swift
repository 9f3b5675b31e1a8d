import BCKindsGenerator

extension Catalogue {
    static let shooterMatchingStateChanged = Kind(
        82, "shooterMatchingStateChanged", "shooter matching state",
        app: "ShooterMatchingStateChanged", .appModel, Struct(
        "ShooterMatchingStateChanged",
        doc: """
            t=82 `ShooterMatchingStateChanged`: the shooter mini-game's matching (group, team, room) changed.

            App model only; no capture. The status codes are kept as the integers the server sends.
            """,
        [
            .optional("group_id", "groupID", .int, "the matching group, absent before a group is formed."),
            .required("group_status", "groupStatus", .int, "the group's state code."),
            .required("host_member_type", "hostMemberType", .int, "the host's role code."),
            .required("team_status", "teamStatus", .int, "the team's state code."),
            .required("member_user_ids", "memberUserIDs", .strings,
                "the user ids of the team's members (each a string or a number)."),
            .required("room_id", "roomID", .string, "the game room."),
            .required("season_id", "seasonID", .int, "the shooter season."),
            .required("stage_id", "stageID", .string, "the stage to be played."),
            .required("team_id", "teamID", .int, "the team."),
        ]))
}
