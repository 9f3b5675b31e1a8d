extension BCResponse.Gift {
    /// `avatar_user_ids` split at its commas: empty when the key is absent or empty.
    public var avatarUserIDList: [String] {
        (avatarUserIDs ?? "").split(separator: ",").map(String.init)
    }
}
