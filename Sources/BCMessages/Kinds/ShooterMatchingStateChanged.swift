extension BCResponse {
    /// t=82 `ShooterMatchingStateChanged`: the shooter mini-game's matching (group, team, room) changed.
    ///
    /// App model only; no capture. The status codes are kept as the integers the server sends.
    public struct ShooterMatchingStateChanged: BCPayload {
        /// `group_id`: the matching group, absent before a group is formed.
        @OptionalForcibleInt public var groupID: Int?
        /// `group_status`: the group's state code.
        @ForcibleInt public var groupStatus: Int
        /// `host_member_type`: the host's role code.
        @ForcibleInt public var hostMemberType: Int
        /// `team_status`: the team's state code.
        @ForcibleInt public var teamStatus: Int
        /// `member_user_ids`: the user ids of the team's members (each a string or a number).
        @ForcibleArray public var memberUserIDs: [String]
        /// `room_id`: the game room.
        @ForcibleString public var roomID: String
        /// `season_id`: the shooter season.
        @ForcibleInt public var seasonID: Int
        /// `stage_id`: the stage to be played.
        @ForcibleString public var stageID: String
        /// `team_id`: the team.
        @ForcibleInt public var teamID: Int

        public init(
            groupID: Int? = nil, groupStatus: Int, hostMemberType: Int, teamStatus: Int, memberUserIDs: [String],
            roomID: String, seasonID: Int, stageID: String, teamID: Int
        ) {
            self.groupID = groupID
            self.groupStatus = groupStatus
            self.hostMemberType = hostMemberType
            self.teamStatus = teamStatus
            self.memberUserIDs = memberUserIDs
            self.roomID = roomID
            self.seasonID = seasonID
            self.stageID = stageID
            self.teamID = teamID
        }

        enum CodingKeys: String, CodingKey {
            case groupID = "group_id"
            case groupStatus = "group_status"
            case hostMemberType = "host_member_type"
            case teamStatus = "team_status"
            case memberUserIDs = "member_user_ids"
            case roomID = "room_id"
            case seasonID = "season_id"
            case stageID = "stage_id"
            case teamID = "team_id"
        }
    }
}
