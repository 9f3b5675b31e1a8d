extension BCResponse {
    /// One readable line saying what happened, for logs and terminals: "Taro: hello",
    /// "ねこまる sent 小さなハート ×8 (300 coins)", "44 watching, 120 in total".
    public var summary: String {
        switch self {
        case .comment(let comment): "\(comment.user.name): \(comment.text)"
        case .viewerCountChanged(let count): "\(count.onlineViewerCount) watching, \(count.totalViewerCount) in total"
        case .liveEnded: "the live ended"
        case .unknown(let unknown): "a kind the model does not know, with keys \(unknown.json.keys.sorted().joined(separator: ", "))"
        default: type?.meaning ?? ""
        }
    }
}
