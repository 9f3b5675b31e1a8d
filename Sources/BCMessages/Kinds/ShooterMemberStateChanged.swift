extension BCResponse {
    /// t=81 `ShooterMemberStateChanged`: a member's state in the shooter mini-game changed.
    ///
    /// App model only; no capture. The status and type codes are kept as the integers the server sends, since
    /// no source names their values.
    public struct ShooterMemberStateChanged: BCPayload {
        /// `member_status`: the member's state code.
        @ForcibleInt public var memberStatus: Int
        /// `member_type`: the member's role code (host or guest, by the name).
        @ForcibleInt public var memberType: Int
        /// `season_id`: the shooter season.
        @ForcibleInt public var seasonID: Int
        /// `team_id`: the member's team.
        @ForcibleInt public var teamID: Int
        /// `member_user_id`: the member's user id.
        @ForcibleString public var memberUserID: String

        public init(memberStatus: Int, memberType: Int, seasonID: Int, teamID: Int, memberUserID: String) {
            self.memberStatus = memberStatus
            self.memberType = memberType
            self.seasonID = seasonID
            self.teamID = teamID
            self.memberUserID = memberUserID
        }

        enum CodingKeys: String, CodingKey {
            case memberStatus = "member_status"
            case memberType = "member_type"
            case seasonID = "season_id"
            case teamID = "team_id"
            case memberUserID = "member_user_id"
        }
    }
}
