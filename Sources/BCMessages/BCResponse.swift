/// One bcsvr message, typed by its kind.
///
/// A kind with keys carries its own struct (`case gift(BCResponse.Gift)`); a kind with none is a bare case
/// (`case liveUnlinked`); a `t` the model does not know is `.unknown`, kept whole. Decoding reads `t` once and
/// decodes only that kind's struct. A caller depends only on the kinds it handles:
///
/// ```swift
/// switch try BCMessageDecoder().decode(frame) {
/// case .gift(let gift): show(gift)
/// case .liveEnded: stop()
/// default: break
/// }
/// ```
public enum BCResponse: Hashable, Sendable {
    /// t=1: viewer comment.
    case comment(Comment)
    /// t=3: viewer entered the live.
    case join
    /// t=4: a viewer followed the streamer.
    case follow
    /// t=7: live settings changed.
    case liveChanged
    /// t=8: stream ended.
    case liveEnded(LiveEnded)
    /// t=9: viewer went to another live.
    case liveSelected
    /// t=10: collab (co-stream) request.
    case collabRequested
    /// t=11: collab accepted.
    case collabAccepted
    /// t=12: collab request canceled.
    case collabCanceled
    /// t=13: collab peer signalling relay.
    case collabPeerSignal
    /// t=14: collab ended.
    case collabClosed
    /// t=16: viewer shared the live URL.
    case liveURLShared
    /// t=19: memo or notice shown as a comment.
    case memo
    /// t=23: viewer counters.
    case viewerCountChanged(ViewerCountChanged)
    /// t=26: this live linked to another live.
    case liveLinked
    /// t=27: link removed.
    case liveUnlinked
    /// t=28: linked live ended.
    case linkedLiveEnded
    /// t=29: quiz question shown.
    case quizQuestion
    /// t=30: quiz answer shown.
    case quizAnswer
    /// t=31: close the quiz popup.
    case quizPopupDismissed
    /// t=34: streamer avatar (emomo) state.
    case avatar
    /// t=35: gift sent.
    case gift
    /// t=37: top gifter changed.
    case topGifterChanged
    /// t=38: top-3 gifters.
    case topGifters
    /// t=39: announcement popup.
    case announcementPopup
    /// t=49: viewer posted their in-game user id.
    case appUserIDPosted
    /// t=51: moderator appointed or removed.
    case moderatorChanged
    /// t=56: fever meter.
    case feverChanged
    /// t=60: stop-broadcast order with a message.
    case stopBroadcasting
    /// t=61: client should reload the gift panel.
    case giftPanelReload
    /// t=62: gift-gacha stock.
    case giftGacha
    /// t=65: emomo-run mini-game on or off.
    case emomoRunStateChanged
    /// t=66: emomo-run game gift.
    case emomoRunGift
    /// t=69: reload avatar.
    case emomoReload
    /// t=70: collab state.
    case collabChanged
    /// t=71: user level up.
    case userLevelUp
    /// t=72: reload level gift.
    case userLevelGiftReload
    /// t=73: streamer invited a viewer to collab.
    case collabInvited
    /// t=74: collab invite canceled by the streamer.
    case collabInviteCanceledByStreamer
    /// t=75: collab invite canceled by the viewer.
    case collabInviteCanceledByViewer
    /// t=76: collab leader stopped streaming.
    case collabLeaderStreamingEnded
    /// t=77: recommend a collab live.
    case collabRecommendLive
    /// t=81: shooter mini-game member state.
    case shooterMemberStateChanged
    /// t=82: shooter matching state.
    case shooterMatchingStateChanged
    /// t=83: live matching canceled.
    case matchingLiveCanceled
    /// t=84: matched with a live.
    case matchingLive
    /// t=85: collab matching ready.
    case collabReadyMatching
    /// t=86: collab matching found too few hosts.
    case collabNotEnoughHosts
    /// t=87: collab started by matching.
    case collabStartedByMatching
    /// t=88: collab ended: user not followed.
    case collabEndedNotFollowing
    /// t=89: event ranking changed.
    case giftRankingChanged
    /// t=90: matched starter to starter.
    case matchingStarterToStarter
    /// t=92: live-game started or joined.
    case liveGameConnected
    /// t=93: live-game disconnected.
    case liveGameDisconnected
    /// t=94: live-game ended.
    case liveGameEnded
    /// t=106: shooter viewer matched.
    case shooterViewerMatched
    /// t=107: shooter matching finished.
    case shooterMatchingFinished
    /// t=108: avatar shown or hidden.
    case emomoVisibilityChanged
    /// t=109: emomo quest game on or off.
    case emomoQuestStateChanged
    /// t=110: emomo quest game gift (fields not modelled).
    case emomoQuestGift
    /// t=111: mutual-gift goal achieved.
    case mutualGiftAchieved
    /// t=112: mutual-gift rewards to receive.
    case mutualGiftRewards
    /// t=113: lucky prize.
    case luckyPrize
    /// t=114: live-game interruptible flag.
    case liveGameInterruptibleChanged
    /// t=115: live-game playing, with its gifts.
    case liveGamePlaying
    /// t=116: cheer (yell) level-up.
    case cheerLevelUp
    /// t=117: focus event updated.
    case focusEventUpdated
    /// t=123: stream ended (newer servers).
    case streamEnded
    /// A kind the model does not know: kept, not fatal.
    case unknown(Unknown)
}

extension BCResponse {
    /// The message's kind, or nil for `.unknown`.
    public var type: BCType? {
        switch self {
        case .comment: .comment
        case .join: .join
        case .follow: .follow
        case .liveChanged: .liveChanged
        case .liveEnded: .liveEnded
        case .liveSelected: .liveSelected
        case .collabRequested: .collabRequested
        case .collabAccepted: .collabAccepted
        case .collabCanceled: .collabCanceled
        case .collabPeerSignal: .collabPeerSignal
        case .collabClosed: .collabClosed
        case .liveURLShared: .liveURLShared
        case .memo: .memo
        case .viewerCountChanged: .viewerCountChanged
        case .liveLinked: .liveLinked
        case .liveUnlinked: .liveUnlinked
        case .linkedLiveEnded: .linkedLiveEnded
        case .quizQuestion: .quizQuestion
        case .quizAnswer: .quizAnswer
        case .quizPopupDismissed: .quizPopupDismissed
        case .avatar: .avatar
        case .gift: .gift
        case .topGifterChanged: .topGifterChanged
        case .topGifters: .topGifters
        case .announcementPopup: .announcementPopup
        case .appUserIDPosted: .appUserIDPosted
        case .moderatorChanged: .moderatorChanged
        case .feverChanged: .feverChanged
        case .stopBroadcasting: .stopBroadcasting
        case .giftPanelReload: .giftPanelReload
        case .giftGacha: .giftGacha
        case .emomoRunStateChanged: .emomoRunStateChanged
        case .emomoRunGift: .emomoRunGift
        case .emomoReload: .emomoReload
        case .collabChanged: .collabChanged
        case .userLevelUp: .userLevelUp
        case .userLevelGiftReload: .userLevelGiftReload
        case .collabInvited: .collabInvited
        case .collabInviteCanceledByStreamer: .collabInviteCanceledByStreamer
        case .collabInviteCanceledByViewer: .collabInviteCanceledByViewer
        case .collabLeaderStreamingEnded: .collabLeaderStreamingEnded
        case .collabRecommendLive: .collabRecommendLive
        case .shooterMemberStateChanged: .shooterMemberStateChanged
        case .shooterMatchingStateChanged: .shooterMatchingStateChanged
        case .matchingLiveCanceled: .matchingLiveCanceled
        case .matchingLive: .matchingLive
        case .collabReadyMatching: .collabReadyMatching
        case .collabNotEnoughHosts: .collabNotEnoughHosts
        case .collabStartedByMatching: .collabStartedByMatching
        case .collabEndedNotFollowing: .collabEndedNotFollowing
        case .giftRankingChanged: .giftRankingChanged
        case .matchingStarterToStarter: .matchingStarterToStarter
        case .liveGameConnected: .liveGameConnected
        case .liveGameDisconnected: .liveGameDisconnected
        case .liveGameEnded: .liveGameEnded
        case .shooterViewerMatched: .shooterViewerMatched
        case .shooterMatchingFinished: .shooterMatchingFinished
        case .emomoVisibilityChanged: .emomoVisibilityChanged
        case .emomoQuestStateChanged: .emomoQuestStateChanged
        case .emomoQuestGift: .emomoQuestGift
        case .mutualGiftAchieved: .mutualGiftAchieved
        case .mutualGiftRewards: .mutualGiftRewards
        case .luckyPrize: .luckyPrize
        case .liveGameInterruptibleChanged: .liveGameInterruptibleChanged
        case .liveGamePlaying: .liveGamePlaying
        case .cheerLevelUp: .cheerLevelUp
        case .focusEventUpdated: .focusEventUpdated
        case .streamEnded: .streamEnded
        case .unknown: nil
        }
    }

    /// The message's `t`.
    public var t: Int {
        if case .unknown(let unknown) = self { unknown.t } else { type?.rawValue ?? 0 }
    }

    /// The kind's short name (`"gift"`), `"unknown"` for a kind the model does not know.
    public var kind: String { type?.name ?? "unknown" }

    /// The payload struct of a kind with keys, nil for a bare case or an unknown kind.
    public var payload: (any BCPayload)? {
        switch self {
        case .comment(let payload): payload
        case .join: nil
        case .follow: nil
        case .liveChanged: nil
        case .liveEnded(let payload): payload
        case .liveSelected: nil
        case .collabRequested: nil
        case .collabAccepted: nil
        case .collabCanceled: nil
        case .collabPeerSignal: nil
        case .collabClosed: nil
        case .liveURLShared: nil
        case .memo: nil
        case .viewerCountChanged(let payload): payload
        case .liveLinked: nil
        case .linkedLiveEnded: nil
        case .quizQuestion: nil
        case .quizAnswer: nil
        case .avatar: nil
        case .gift: nil
        case .topGifterChanged: nil
        case .topGifters: nil
        case .announcementPopup: nil
        case .appUserIDPosted: nil
        case .moderatorChanged: nil
        case .feverChanged: nil
        case .stopBroadcasting: nil
        case .giftGacha: nil
        case .emomoRunStateChanged: nil
        case .emomoRunGift: nil
        case .collabChanged: nil
        case .userLevelUp: nil
        case .userLevelGiftReload: nil
        case .collabInvited: nil
        case .collabInviteCanceledByStreamer: nil
        case .collabInviteCanceledByViewer: nil
        case .collabRecommendLive: nil
        case .shooterMemberStateChanged: nil
        case .shooterMatchingStateChanged: nil
        case .matchingLiveCanceled: nil
        case .matchingLive: nil
        case .collabReadyMatching: nil
        case .collabStartedByMatching: nil
        case .collabEndedNotFollowing: nil
        case .giftRankingChanged: nil
        case .matchingStarterToStarter: nil
        case .liveGameConnected: nil
        case .liveGameDisconnected: nil
        case .liveGameEnded: nil
        case .shooterViewerMatched: nil
        case .shooterMatchingFinished: nil
        case .emomoVisibilityChanged: nil
        case .emomoQuestStateChanged: nil
        case .emomoQuestGift: nil
        case .mutualGiftAchieved: nil
        case .mutualGiftRewards: nil
        case .luckyPrize: nil
        case .liveGameInterruptibleChanged: nil
        case .liveGamePlaying: nil
        case .cheerLevelUp: nil
        case .liveUnlinked: nil
        case .quizPopupDismissed: nil
        case .giftPanelReload: nil
        case .emomoReload: nil
        case .collabLeaderStreamingEnded: nil
        case .collabNotEnoughHosts: nil
        case .focusEventUpdated: nil
        case .streamEnded: nil
        case .unknown: nil
        }
    }
}

/// The struct a `BCResponse` case carries: encoded and decoded in the message's own JSON object, beside `t`.
public protocol BCPayload: Codable, Hashable, Sendable {}

extension BCResponse: Codable {
    enum TypeKey: String, CodingKey { case t }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TypeKey.self)
        guard container.contains(.t) else {
            throw DecodingError.keyNotFound(TypeKey.t, .init(
                codingPath: decoder.codingPath,
                debugDescription: "Every bcsvr message names its kind in \"t\"; this one has no \"t\"."))
        }
        let t = try container.decode(ForcibleInt.self, forKey: .t).wrappedValue
        guard let type = BCType(rawValue: t) else {
            self = .unknown(try Unknown(from: decoder))
            return
        }
        switch type {
        case .comment: self = .comment(try Comment(from: decoder))
        case .join: self = .join
        case .follow: self = .follow
        case .liveChanged: self = .liveChanged
        case .liveEnded: self = .liveEnded(try LiveEnded(from: decoder))
        case .liveSelected: self = .liveSelected
        case .collabRequested: self = .collabRequested
        case .collabAccepted: self = .collabAccepted
        case .collabCanceled: self = .collabCanceled
        case .collabPeerSignal: self = .collabPeerSignal
        case .collabClosed: self = .collabClosed
        case .liveURLShared: self = .liveURLShared
        case .memo: self = .memo
        case .viewerCountChanged: self = .viewerCountChanged(try ViewerCountChanged(from: decoder))
        case .liveLinked: self = .liveLinked
        case .liveUnlinked: self = .liveUnlinked
        case .linkedLiveEnded: self = .linkedLiveEnded
        case .quizQuestion: self = .quizQuestion
        case .quizAnswer: self = .quizAnswer
        case .quizPopupDismissed: self = .quizPopupDismissed
        case .avatar: self = .avatar
        case .gift: self = .gift
        case .topGifterChanged: self = .topGifterChanged
        case .topGifters: self = .topGifters
        case .announcementPopup: self = .announcementPopup
        case .appUserIDPosted: self = .appUserIDPosted
        case .moderatorChanged: self = .moderatorChanged
        case .feverChanged: self = .feverChanged
        case .stopBroadcasting: self = .stopBroadcasting
        case .giftPanelReload: self = .giftPanelReload
        case .giftGacha: self = .giftGacha
        case .emomoRunStateChanged: self = .emomoRunStateChanged
        case .emomoRunGift: self = .emomoRunGift
        case .emomoReload: self = .emomoReload
        case .collabChanged: self = .collabChanged
        case .userLevelUp: self = .userLevelUp
        case .userLevelGiftReload: self = .userLevelGiftReload
        case .collabInvited: self = .collabInvited
        case .collabInviteCanceledByStreamer: self = .collabInviteCanceledByStreamer
        case .collabInviteCanceledByViewer: self = .collabInviteCanceledByViewer
        case .collabLeaderStreamingEnded: self = .collabLeaderStreamingEnded
        case .collabRecommendLive: self = .collabRecommendLive
        case .shooterMemberStateChanged: self = .shooterMemberStateChanged
        case .shooterMatchingStateChanged: self = .shooterMatchingStateChanged
        case .matchingLiveCanceled: self = .matchingLiveCanceled
        case .matchingLive: self = .matchingLive
        case .collabReadyMatching: self = .collabReadyMatching
        case .collabNotEnoughHosts: self = .collabNotEnoughHosts
        case .collabStartedByMatching: self = .collabStartedByMatching
        case .collabEndedNotFollowing: self = .collabEndedNotFollowing
        case .giftRankingChanged: self = .giftRankingChanged
        case .matchingStarterToStarter: self = .matchingStarterToStarter
        case .liveGameConnected: self = .liveGameConnected
        case .liveGameDisconnected: self = .liveGameDisconnected
        case .liveGameEnded: self = .liveGameEnded
        case .shooterViewerMatched: self = .shooterViewerMatched
        case .shooterMatchingFinished: self = .shooterMatchingFinished
        case .emomoVisibilityChanged: self = .emomoVisibilityChanged
        case .emomoQuestStateChanged: self = .emomoQuestStateChanged
        case .emomoQuestGift: self = .emomoQuestGift
        case .mutualGiftAchieved: self = .mutualGiftAchieved
        case .mutualGiftRewards: self = .mutualGiftRewards
        case .luckyPrize: self = .luckyPrize
        case .liveGameInterruptibleChanged: self = .liveGameInterruptibleChanged
        case .liveGamePlaying: self = .liveGamePlaying
        case .cheerLevelUp: self = .cheerLevelUp
        case .focusEventUpdated: self = .focusEventUpdated
        case .streamEnded: self = .streamEnded
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if case .unknown(let unknown) = self {
            try unknown.encode(to: encoder)
            return
        }
        var container = encoder.container(keyedBy: TypeKey.self)
        try container.encode(t, forKey: .t)
        try payload?.encode(to: encoder)
    }
}
