extension BCResponse {
    /// One readable line saying what happened, for logs and terminals: "Taro: hello",
    /// "ねこまる sent 花束 ×8 (300 coins each)", "44 watching, 120 in total". Kinds without a line of their
    /// own say their meaning, and who did it when the kind carries a user.
    ///
    /// Names and comments are quoted as received, controls included: the summary is one line of display text
    /// whose escaping belongs to the display (an app's label wants RLM kept, a terminal wants ESC and line
    /// breaks shown as escapes), so print it to a terminal or a log through `TerminalText.escaped(_:)`, as
    /// `bcstream` does.
    public var summary: String {
        switch self {
        case .comment(let comment):
            "\(comment.user.name): \(comment.text)"
        case .join(let join):
            "\(join.user.name) joined" + (join.onlineViewerCount.map { " (\($0) watching)" } ?? "")
        case .follow(let follow):
            "\(follow.user.name) followed the streamer"
        case .memo(let memo):
            "memo from \(memo.user.name): \(memo.text)"
        case .gift(let gift):
            "\(gift.user.name) sent \(gift.giftTitle) ×\(gift.count) (\(gift.coins) coin\(gift.coins == 1 ? "" : "s") each)"
                + (gift.totalGiftCoins.map { "; \($0) coins in this live" } ?? "")
        case .viewerCountChanged(let count):
            "\(count.onlineViewerCount) watching, \(count.totalViewerCount) in total"
        case .liveEnded, .streamEnded:
            "the live ended"
        case .liveSelected(let selected):
            "\(selected.user.name) went to \(selected.ownerName)'s live"
        case .topGifters(let ranking):
            "top gifters: " + ranking.users.enumerated()
                .map { "\($0.offset + 1). \($0.element.name ?? $0.element.userID)" }.joined(separator: ", ")
        case .cheerLevelUp(let cheer):
            "\(cheer.user.name) reached cheer level \(cheer.yellLevel)" + (cheer.text.isEmpty ? "" : ": \(cheer.text)")
        case .userLevelUp(let level):
            "user \(level.userID) reached level \(level.level)"
        case .luckyPrize(let prize):
            "\(prize.user.name) won \(prize.rewardTitle)"
        case .liveURLShared(let shared):
            "\(shared.user.name) shared the live"
        case .appUserIDPosted(let posted):
            "\(posted.user.name) posted their in-game id \(posted.appUserID)"
        case .moderatorChanged(let change):
            "user \(change.moderatorUserID) \(change.isAppointed ? "appointed" : "removed as") moderator"
        case .feverChanged(let fever):
            "fever meter \(fever.currentMeter)/\(fever.maxMeter)"
        case .stopBroadcasting(let order):
            "stop broadcasting: \(order.message)"
        case .unknown(let unknown):
            "a kind the model does not know, with keys \(unknown.json.keys.filter { $0 != "t" }.sorted().joined(separator: ", "))"
        default:
            if let user = (payload as? any UserAttributed)?.user {
                "\(type?.meaning ?? kind) (\(user.name))"
            } else {
                type?.meaning ?? kind
            }
        }
    }
}

/// A payload that carries the shared user block.
public protocol UserAttributed {
    /// Who the message is about or from: the shared user block (`u`, `ac`, `iurl`, `burl`).
    var user: BCResponse.User { get }
}
