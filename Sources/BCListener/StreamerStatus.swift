import BCMessages

/// What `--wait` needs from the profile answer (`GET /api/user/profile?user_id=<id>`): whether the streamer is
/// live now, and which live. `onlive` is `{"live_id":"…"}` while live, `null` otherwise.
public struct StreamerStatus: Hashable, Sendable {
    /// `user_id`: the streamer's id, or the id that was asked for when the answer names none.
    public var userID: String
    /// `name`: the streamer's display name (untrusted text), if the answer has one.
    public var name: String?
    /// The live in progress, nil when offline.
    public var liveID: String?

    /// A streamer, offline unless `liveID` names their live.
    public init(userID: String, name: String? = nil, liveID: String? = nil) {
        self.userID = userID
        self.name = name
        self.liveID = liveID
    }

    /// Reads the profile answer's JSON object. `requested` is the id asked for, used when the answer names none.
    public init(answer: JSONValue, requested: String) throws(LiveDirectoryError) {
        let endpoint = "profile"
        guard case .object = answer else { throw .notAnObject(endpoint: endpoint) }
        guard let onlive = answer["onlive"] else { throw .missingKeys(endpoint: endpoint, keys: ["onlive"]) }
        let userID = answer["user_id"]?.text ?? requested
        switch onlive {
        case .null:
            self.init(userID: userID, name: answer["name"]?.text, liveID: nil)
        case .object:
            guard let liveID = onlive["live_id"]?.text, LiveReference.isIdentifier(liveID) else {
                throw .unusableValue(endpoint: endpoint, key: "onlive.live_id",
                                     value: onlive["live_id"]?.description ?? "(absent)")
            }
            self.init(userID: userID, name: answer["name"]?.text, liveID: liveID)
        default:
            throw .unusableValue(endpoint: endpoint, key: "onlive", value: onlive.description)
        }
    }
}
