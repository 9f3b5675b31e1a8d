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
    case join(Join)
    /// t=4: a viewer followed the streamer.
    case follow(Follow)
    /// t=7: live settings changed.
    case liveChanged(LiveChanged)
    /// t=8: stream ended.
    case liveEnded(LiveEnded)
    /// t=9: viewer went to another live.
    case liveSelected(LiveSelected)
    /// t=10: collab (co-stream) request.
    case collabRequested(CollabRequested)
    /// t=11: collab accepted.
    case collabAccepted(CollabAccepted)
    /// t=12: collab request canceled.
    case collabCanceled(CollabCanceled)
    /// t=13: collab peer signalling relay.
    case collabPeerSignal(CollabPeerSignal)
    /// t=14: collab ended.
    case collabClosed(CollabClosed)
    /// t=16: viewer shared the live URL.
    case liveURLShared(LiveURLShared)
    /// t=19: memo or notice shown as a comment.
    case memo(Memo)
    /// t=23: viewer counters.
    case viewerCountChanged(ViewerCountChanged)
    /// t=26: this live linked to another live.
    case liveLinked(LiveLinked)
    /// t=27: link removed.
    case liveUnlinked
    /// t=28: linked live ended.
    case linkedLiveEnded(LinkedLiveEnded)
    /// t=29: quiz question shown.
    case quizQuestion(Quiz)
    /// t=30: quiz answer shown.
    case quizAnswer(Quiz)
    /// t=31: close the quiz popup.
    case quizPopupDismissed
    /// t=34: streamer avatar (emomo) state.
    case avatar(Avatar)
    /// t=35: gift sent.
    case gift(Gift)
    /// t=37: top gifter changed.
    case topGifterChanged(TopGifterChanged)
    /// t=38: top-3 gifters.
    case topGifters(TopGifters)
    /// t=39: announcement popup.
    case announcementPopup(AnnouncementPopup)
    /// t=49: viewer posted their in-game user id.
    case appUserIDPosted(AppUserIDPosted)
    /// t=51: moderator appointed or removed.
    case moderatorChanged(ModeratorChanged)
    /// t=56: fever meter.
    case feverChanged(FeverChanged)
    /// t=60: stop-broadcast order with a message.
    case stopBroadcasting(StopBroadcasting)
    /// t=61: client should reload the gift panel.
    case giftPanelReload
    /// t=62: gift-gacha stock.
    case giftGacha(GiftGacha)
    /// t=65: emomo-run mini-game on or off.
    case emomoRunStateChanged(EmomoRunStateChanged)
    /// t=66: emomo-run game gift.
    case emomoRunGift(EmomoRunGift)
    /// t=69: reload avatar.
    case emomoReload
    /// t=70: collab state.
    case collabChanged(CollabChanged)
    /// t=71: user level up.
    case userLevelUp(UserLevelUp)
    /// t=72: reload level gift.
    case userLevelGiftReload(UserLevelGiftReload)
    /// t=73: streamer invited a viewer to collab.
    case collabInvited(CollabInvited)
    /// t=74: collab invite canceled by the streamer.
    case collabInviteCanceledByStreamer(CollabInviteCanceledByStreamer)
    /// t=75: collab invite canceled by the viewer.
    case collabInviteCanceledByViewer(CollabInviteCanceledByViewer)
    /// t=76: collab leader stopped streaming.
    case collabLeaderStreamingEnded
    /// t=77: recommend a collab live.
    case collabRecommendLive(CollabRecommendLive)
    /// t=81: shooter mini-game member state.
    case shooterMemberStateChanged(ShooterMemberStateChanged)
    /// t=82: shooter matching state.
    case shooterMatchingStateChanged(ShooterMatchingStateChanged)
    /// t=83: live matching canceled.
    case matchingLiveCanceled(MatchingLiveCanceled)
    /// t=84: matched with a live.
    case matchingLive(MatchingLive)
    /// t=85: collab matching ready.
    case collabReadyMatching(CollabReadyMatching)
    /// t=86: collab matching found too few hosts.
    case collabNotEnoughHosts
    /// t=87: collab started by matching.
    case collabStartedByMatching(CollabStartedByMatching)
    /// t=88: collab ended: user not followed.
    case collabEndedNotFollowing(CollabEndedNotFollowing)
    /// t=89: event ranking changed.
    case giftRankingChanged(GiftRankingChanged)
    /// t=90: matched starter to starter.
    case matchingStarterToStarter(MatchingStarterToStarter)
    /// t=92: live-game started or joined.
    case liveGameConnected(LiveGameConnected)
    /// t=93: live-game disconnected.
    case liveGameDisconnected(LiveGameDisconnected)
    /// t=94: live-game ended.
    case liveGameEnded(LiveGameEnded)
    /// t=106: shooter viewer matched.
    case shooterViewerMatched(ShooterViewerMatched)
    /// t=107: shooter matching finished.
    case shooterMatchingFinished(ShooterMatchingFinished)
    /// t=108: avatar shown or hidden.
    case emomoVisibilityChanged(EmomoVisibilityChanged)
    /// t=109: emomo quest game on or off.
    case emomoQuestStateChanged(EmomoQuestStateChanged)
    /// t=110: emomo quest game gift (fields not modelled).
    case emomoQuestGift(EmomoQuestGift)
    /// t=111: mutual-gift goal achieved.
    case mutualGiftAchieved(MutualGiftAchieved)
    /// t=112: mutual-gift rewards to receive.
    case mutualGiftRewards(MutualGiftRewards)
    /// t=113: lucky prize.
    case luckyPrize(LuckyPrize)
    /// t=114: live-game interruptible flag.
    case liveGameInterruptibleChanged(LiveGameInterruptibleChanged)
    /// t=115: live-game playing, with its gifts.
    case liveGamePlaying(LiveGamePlaying)
    /// t=116: cheer (yell) level-up.
    case cheerLevelUp(CheerLevelUp)
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
        case .join(let payload): payload
        case .follow(let payload): payload
        case .liveChanged(let payload): payload
        case .liveEnded(let payload): payload
        case .liveSelected(let payload): payload
        case .collabRequested(let payload): payload
        case .collabAccepted(let payload): payload
        case .collabCanceled(let payload): payload
        case .collabPeerSignal(let payload): payload
        case .collabClosed(let payload): payload
        case .liveURLShared(let payload): payload
        case .memo(let payload): payload
        case .viewerCountChanged(let payload): payload
        case .liveLinked(let payload): payload
        case .linkedLiveEnded(let payload): payload
        case .quizQuestion(let payload): payload
        case .quizAnswer(let payload): payload
        case .avatar(let payload): payload
        case .gift(let payload): payload
        case .topGifterChanged(let payload): payload
        case .topGifters(let payload): payload
        case .announcementPopup(let payload): payload
        case .appUserIDPosted(let payload): payload
        case .moderatorChanged(let payload): payload
        case .feverChanged(let payload): payload
        case .stopBroadcasting(let payload): payload
        case .giftGacha(let payload): payload
        case .emomoRunStateChanged(let payload): payload
        case .emomoRunGift(let payload): payload
        case .collabChanged(let payload): payload
        case .userLevelUp(let payload): payload
        case .userLevelGiftReload(let payload): payload
        case .collabInvited(let payload): payload
        case .collabInviteCanceledByStreamer(let payload): payload
        case .collabInviteCanceledByViewer(let payload): payload
        case .collabRecommendLive(let payload): payload
        case .shooterMemberStateChanged(let payload): payload
        case .shooterMatchingStateChanged(let payload): payload
        case .matchingLiveCanceled(let payload): payload
        case .matchingLive(let payload): payload
        case .collabReadyMatching(let payload): payload
        case .collabStartedByMatching(let payload): payload
        case .collabEndedNotFollowing(let payload): payload
        case .giftRankingChanged(let payload): payload
        case .matchingStarterToStarter(let payload): payload
        case .liveGameConnected(let payload): payload
        case .liveGameDisconnected(let payload): payload
        case .liveGameEnded(let payload): payload
        case .shooterViewerMatched(let payload): payload
        case .shooterMatchingFinished(let payload): payload
        case .emomoVisibilityChanged(let payload): payload
        case .emomoQuestStateChanged(let payload): payload
        case .emomoQuestGift(let payload): payload
        case .mutualGiftAchieved(let payload): payload
        case .mutualGiftRewards(let payload): payload
        case .luckyPrize(let payload): payload
        case .liveGameInterruptibleChanged(let payload): payload
        case .liveGamePlaying(let payload): payload
        case .cheerLevelUp(let payload): payload
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
        case .join: self = .join(try Join(from: decoder))
        case .follow: self = .follow(try Follow(from: decoder))
        case .liveChanged: self = .liveChanged(try LiveChanged(from: decoder))
        case .liveEnded: self = .liveEnded(try LiveEnded(from: decoder))
        case .liveSelected: self = .liveSelected(try LiveSelected(from: decoder))
        case .collabRequested: self = .collabRequested(try CollabRequested(from: decoder))
        case .collabAccepted: self = .collabAccepted(try CollabAccepted(from: decoder))
        case .collabCanceled: self = .collabCanceled(try CollabCanceled(from: decoder))
        case .collabPeerSignal: self = .collabPeerSignal(try CollabPeerSignal(from: decoder))
        case .collabClosed: self = .collabClosed(try CollabClosed(from: decoder))
        case .liveURLShared: self = .liveURLShared(try LiveURLShared(from: decoder))
        case .memo: self = .memo(try Memo(from: decoder))
        case .viewerCountChanged: self = .viewerCountChanged(try ViewerCountChanged(from: decoder))
        case .liveLinked: self = .liveLinked(try LiveLinked(from: decoder))
        case .liveUnlinked: self = .liveUnlinked
        case .linkedLiveEnded: self = .linkedLiveEnded(try LinkedLiveEnded(from: decoder))
        case .quizQuestion: self = .quizQuestion(try Quiz(from: decoder))
        case .quizAnswer: self = .quizAnswer(try Quiz(from: decoder))
        case .quizPopupDismissed: self = .quizPopupDismissed
        case .avatar: self = .avatar(try Avatar(from: decoder))
        case .gift: self = .gift(try Gift(from: decoder))
        case .topGifterChanged: self = .topGifterChanged(try TopGifterChanged(from: decoder))
        case .topGifters: self = .topGifters(try TopGifters(from: decoder))
        case .announcementPopup: self = .announcementPopup(try AnnouncementPopup(from: decoder))
        case .appUserIDPosted: self = .appUserIDPosted(try AppUserIDPosted(from: decoder))
        case .moderatorChanged: self = .moderatorChanged(try ModeratorChanged(from: decoder))
        case .feverChanged: self = .feverChanged(try FeverChanged(from: decoder))
        case .stopBroadcasting: self = .stopBroadcasting(try StopBroadcasting(from: decoder))
        case .giftPanelReload: self = .giftPanelReload
        case .giftGacha: self = .giftGacha(try GiftGacha(from: decoder))
        case .emomoRunStateChanged: self = .emomoRunStateChanged(try EmomoRunStateChanged(from: decoder))
        case .emomoRunGift: self = .emomoRunGift(try EmomoRunGift(from: decoder))
        case .emomoReload: self = .emomoReload
        case .collabChanged: self = .collabChanged(try CollabChanged(from: decoder))
        case .userLevelUp: self = .userLevelUp(try UserLevelUp(from: decoder))
        case .userLevelGiftReload: self = .userLevelGiftReload(try UserLevelGiftReload(from: decoder))
        case .collabInvited: self = .collabInvited(try CollabInvited(from: decoder))
        case .collabInviteCanceledByStreamer: self = .collabInviteCanceledByStreamer(try CollabInviteCanceledByStreamer(from: decoder))
        case .collabInviteCanceledByViewer: self = .collabInviteCanceledByViewer(try CollabInviteCanceledByViewer(from: decoder))
        case .collabLeaderStreamingEnded: self = .collabLeaderStreamingEnded
        case .collabRecommendLive: self = .collabRecommendLive(try CollabRecommendLive(from: decoder))
        case .shooterMemberStateChanged: self = .shooterMemberStateChanged(try ShooterMemberStateChanged(from: decoder))
        case .shooterMatchingStateChanged: self = .shooterMatchingStateChanged(try ShooterMatchingStateChanged(from: decoder))
        case .matchingLiveCanceled: self = .matchingLiveCanceled(try MatchingLiveCanceled(from: decoder))
        case .matchingLive: self = .matchingLive(try MatchingLive(from: decoder))
        case .collabReadyMatching: self = .collabReadyMatching(try CollabReadyMatching(from: decoder))
        case .collabNotEnoughHosts: self = .collabNotEnoughHosts
        case .collabStartedByMatching: self = .collabStartedByMatching(try CollabStartedByMatching(from: decoder))
        case .collabEndedNotFollowing: self = .collabEndedNotFollowing(try CollabEndedNotFollowing(from: decoder))
        case .giftRankingChanged: self = .giftRankingChanged(try GiftRankingChanged(from: decoder))
        case .matchingStarterToStarter: self = .matchingStarterToStarter(try MatchingStarterToStarter(from: decoder))
        case .liveGameConnected: self = .liveGameConnected(try LiveGameConnected(from: decoder))
        case .liveGameDisconnected: self = .liveGameDisconnected(try LiveGameDisconnected(from: decoder))
        case .liveGameEnded: self = .liveGameEnded(try LiveGameEnded(from: decoder))
        case .shooterViewerMatched: self = .shooterViewerMatched(try ShooterViewerMatched(from: decoder))
        case .shooterMatchingFinished: self = .shooterMatchingFinished(try ShooterMatchingFinished(from: decoder))
        case .emomoVisibilityChanged: self = .emomoVisibilityChanged(try EmomoVisibilityChanged(from: decoder))
        case .emomoQuestStateChanged: self = .emomoQuestStateChanged(try EmomoQuestStateChanged(from: decoder))
        case .emomoQuestGift: self = .emomoQuestGift(try EmomoQuestGift(from: decoder))
        case .mutualGiftAchieved: self = .mutualGiftAchieved(try MutualGiftAchieved(from: decoder))
        case .mutualGiftRewards: self = .mutualGiftRewards(try MutualGiftRewards(from: decoder))
        case .luckyPrize: self = .luckyPrize(try LuckyPrize(from: decoder))
        case .liveGameInterruptibleChanged: self = .liveGameInterruptibleChanged(try LiveGameInterruptibleChanged(from: decoder))
        case .liveGamePlaying: self = .liveGamePlaying(try LiveGamePlaying(from: decoder))
        case .cheerLevelUp: self = .cheerLevelUp(try CheerLevelUp(from: decoder))
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
