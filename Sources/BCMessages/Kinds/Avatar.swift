extension BCResponse {
    /// t=34 (not in the app): the streamer's avatar ("emomo") state, sent whole whenever it changes.
    ///
    /// Captured (2018, quoted in a third-party comment viewer, MultiCommentViewer's Mirrativ plugin). The state
    /// is a large nested object whose leaves come as numbers or strings at random (`"updated_at":"1545894000"`
    /// beside `"updated_at":0`, `"gradient":["14521944",14796465]`), so every leaf is forcible, and every key
    /// below `avatar` is optional: the avatar system has grown since. Its types are in `AvatarParts.swift`.
    public struct Avatar: BCPayload {
        /// `avatar`: the avatar's whole state.
        public var state: State

        public init(state: State) {
            self.state = state
        }

        enum CodingKeys: String, CodingKey {
            case state = "avatar"
        }
    }
}
