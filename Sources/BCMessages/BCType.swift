/// The kind of a bcsvr message: its integer `"t"`.
///
/// One case per kind known today (see the catalogue in `docs/DESIGN.md`); every case documents its meaning,
/// the app's event name, the evidence behind it and the `BCResponse` case that carries it. A `t` not listed
/// here decodes to `BCResponse.unknown`, never to an error.
public enum BCType: Int, CaseIterable, Hashable, Sendable, Codable {
    /// t=1: viewer comment. App event `LiveCommentReceived`; evidence: captured on the wire; `BCResponse.Comment`.
    case comment = 1
    /// t=3: viewer entered the live. App event `LiveJoined`; evidence: captured on the wire; `BCResponse.Join`.
    case join = 3
    /// t=4: a viewer followed the streamer. App event `StreamerFollowed`; evidence: the 2022 app's model; `BCResponse.Follow`.
    case follow = 4
    /// t=7: live settings changed. App event `LiveChanged`; evidence: captured on the wire; `BCResponse.LiveChanged`.
    case liveChanged = 7
    /// t=8: stream ended. App event `LiveEnded`; evidence: captured on the wire; `BCResponse.LiveEnded`.
    case liveEnded = 8
    /// t=9: viewer went to another live. App event `LiveSelected`; evidence: captured on the wire; `BCResponse.LiveSelected`.
    case liveSelected = 9
    /// t=10: collab (co-stream) request. App event `CollabRequested`; evidence: the 2022 app's model; `BCResponse.CollabRequested`.
    case collabRequested = 10
    /// t=11: collab accepted. App event `CollabAccepted`; evidence: the 2022 app's model; `BCResponse.CollabAccepted`.
    case collabAccepted = 11
    /// t=12: collab request canceled. App event `CollabCanceled`; evidence: the 2022 app's model; `BCResponse.CollabCanceled`.
    case collabCanceled = 12
    /// t=13: collab peer signalling relay. App event `CollabReceivedPeer`; evidence: the 2022 app's model; meaning guessed from its name; `BCResponse.CollabPeerSignal`.
    case collabPeerSignal = 13
    /// t=14: collab ended. App event `CollabClosed`; evidence: the 2022 app's model; `BCResponse.CollabClosed`.
    case collabClosed = 14
    /// t=16: viewer shared the live URL. App event `LiveUrlShared`; evidence: the 2022 app's model; `BCResponse.LiveURLShared`.
    case liveURLShared = 16
    /// t=19: memo or notice shown as a comment. App event `MemoBroadcast`; evidence: the 2022 app's model; meaning guessed from its name; `BCResponse.Memo`.
    case memo = 19
    /// t=23: viewer counters. App event `LiveViewerNumChanged`; evidence: the 2022 app's model; `BCResponse.ViewerCountChanged`.
    case viewerCountChanged = 23
    /// t=26: this live linked to another live. App event `LiveLinked`; evidence: the 2022 app's model; `BCResponse.LiveLinked`.
    case liveLinked = 26
    /// t=27: link removed. App event `LiveUnlinked`; evidence: the 2022 app's model; no payload.
    case liveUnlinked = 27
    /// t=28: linked live ended. App event `LinkedLiveEnded`; evidence: the 2022 app's model; `BCResponse.LinkedLiveEnded`.
    case linkedLiveEnded = 28
    /// t=29: quiz question shown. App event `QuizStartQuestion`; evidence: the 2022 app's model; `BCResponse.Quiz`.
    case quizQuestion = 29
    /// t=30: quiz answer shown. App event `QuizShowCorrectAnswer`; evidence: the 2022 app's model; `BCResponse.Quiz`.
    case quizAnswer = 30
    /// t=31: close the quiz popup. App event `QuizShowDismissPopup`; evidence: the 2022 app's model; no payload.
    case quizPopupDismissed = 31
    /// t=34: streamer avatar (emomo) state. Not in the app; evidence: captured on the wire; `BCResponse.Avatar`.
    case avatar = 34
    /// t=35: gift sent. App event `GiftCommentReceived`; evidence: captured on the wire; `BCResponse.Gift`.
    case gift = 35
    /// t=37: top gifter changed. App event `GiftRankingTopUserUpdated`; evidence: the 2022 app's model; `BCResponse.TopGifterChanged`.
    case topGifterChanged = 37
    /// t=38: top-3 gifters. App event `GiftRankingTopThreeUsers`; evidence: captured on the wire; `BCResponse.TopGifters`.
    case topGifters = 38
    /// t=39: announcement popup. App event `ShowViewerAnnouncementPopup`; evidence: the 2022 app's model; `BCResponse.AnnouncementPopup`.
    case announcementPopup = 39
    /// t=49: viewer posted their in-game user id. App event `AppUserDetailCommentReceived`; evidence: the 2022 app's model; `BCResponse.AppUserIDPosted`.
    case appUserIDPosted = 49
    /// t=51: moderator appointed or removed. App event `ModeratorChange`; evidence: the 2022 app's model; `BCResponse.ModeratorChanged`.
    case moderatorChanged = 51
    /// t=56: fever meter. App event `FeverValueChanged`; evidence: the 2022 app's model; `BCResponse.FeverChanged`.
    case feverChanged = 56
    /// t=60: stop-broadcast order with a message. App event `StopBroadcasting`; evidence: the 2022 app's model; meaning guessed from its name; `BCResponse.StopBroadcasting`.
    case stopBroadcasting = 60
    /// t=61: client should reload the gift panel. App event `GiftPanelReload`; evidence: the 2022 app's model; no payload.
    case giftPanelReload = 61
    /// t=62: gift-gacha stock. App event `ReceivedGiftGacha`; evidence: the 2022 app's model; `BCResponse.GiftGacha`.
    case giftGacha = 62
    /// t=65: emomo-run mini-game on or off. App event `EmomoRunStateChanged`; evidence: the 2022 app's model; `BCResponse.EmomoRunStateChanged`.
    case emomoRunStateChanged = 65
    /// t=66: emomo-run game gift. App event `EmomoRunGiftSent`; evidence: the 2022 app's model; `BCResponse.EmomoRunGift`.
    case emomoRunGift = 66
    /// t=69: reload avatar. App event `ReloadEmomo`; evidence: the 2022 app's model; no payload.
    case emomoReload = 69
    /// t=70: collab state. App event `CollabChanged`; evidence: the 2022 app's model; `BCResponse.CollabChanged`.
    case collabChanged = 70
    /// t=71: user level up. App event `UpdateUserLevel`; evidence: the 2022 app's model; `BCResponse.UserLevelUp`.
    case userLevelUp = 71
    /// t=72: reload level gift. App event `ReloadUserLevelGift`; evidence: the 2022 app's model; `BCResponse.UserLevelGiftReload`.
    case userLevelGiftReload = 72
    /// t=73: streamer invited a viewer to collab. App event `CollabInvited`; evidence: the 2022 app's model; `BCResponse.CollabInvited`.
    case collabInvited = 73
    /// t=74: collab invite canceled by the streamer. App event `CollabInviteCanceledByStreamer`; evidence: the 2022 app's model; `BCResponse.CollabInviteCanceledByStreamer`.
    case collabInviteCanceledByStreamer = 74
    /// t=75: collab invite canceled by the viewer. App event `CollabInviteCanceledByViewer`; evidence: the 2022 app's model; `BCResponse.CollabInviteCanceledByViewer`.
    case collabInviteCanceledByViewer = 75
    /// t=76: collab leader stopped streaming. App event `CollabLeaderStreamingEnd`; evidence: the 2022 app's model; no payload.
    case collabLeaderStreamingEnded = 76
    /// t=77: recommend a collab live. App event `CollabRecommendLive`; evidence: the 2022 app's model; `BCResponse.CollabRecommendLive`.
    case collabRecommendLive = 77
    /// t=81: shooter mini-game member state. App event `ShooterMemberStateChanged`; evidence: the 2022 app's model; `BCResponse.ShooterMemberStateChanged`.
    case shooterMemberStateChanged = 81
    /// t=82: shooter matching state. App event `ShooterMatchingStateChanged`; evidence: the 2022 app's model; `BCResponse.ShooterMatchingStateChanged`.
    case shooterMatchingStateChanged = 82
    /// t=83: live matching canceled. App event `MatchingLiveCanceled`; evidence: the 2022 app's model; `BCResponse.MatchingLiveCanceled`.
    case matchingLiveCanceled = 83
    /// t=84: matched with a live. App event `MatchingLive`; evidence: the 2022 app's model; `BCResponse.MatchingLive`.
    case matchingLive = 84
    /// t=85: collab matching ready. App event `CollabReadyMatching`; evidence: the 2022 app's model; `BCResponse.CollabReadyMatching`.
    case collabReadyMatching = 85
    /// t=86: collab matching found too few hosts. App event `CollabNotFoundEnoughHosts`; evidence: the 2022 app's model; no payload.
    case collabNotEnoughHosts = 86
    /// t=87: collab started by matching. App event `CollabStartByMatching`; evidence: the 2022 app's model; `BCResponse.CollabStartedByMatching`.
    case collabStartedByMatching = 87
    /// t=88: collab ended: user not followed. App event `CollabEndNotFollowUser`; evidence: the 2022 app's model; `BCResponse.CollabEndedNotFollowing`.
    case collabEndedNotFollowing = 88
    /// t=89: event ranking changed. App event `GiftRankingChanged`; evidence: the 2022 app's model; `BCResponse.GiftRankingChanged`.
    case giftRankingChanged = 89
    /// t=90: matched starter to starter. App event `MatchingStarterToStarter`; evidence: the 2022 app's model; `BCResponse.MatchingStarterToStarter`.
    case matchingStarterToStarter = 90
    /// t=92: live-game started or joined. App event `LiveGameConnected`; evidence: the 2022 app's model; `BCResponse.LiveGameConnected`.
    case liveGameConnected = 92
    /// t=93: live-game disconnected. App event `LiveGameDisconnected`; evidence: the 2022 app's model; `BCResponse.LiveGameDisconnected`.
    case liveGameDisconnected = 93
    /// t=94: live-game ended. App event `LiveGameEnded`; evidence: the 2022 app's model; `BCResponse.LiveGameEnded`.
    case liveGameEnded = 94
    /// t=106: shooter viewer matched. App event `ShooterViewerMatched`; evidence: the 2022 app's model; `BCResponse.ShooterViewerMatched`.
    case shooterViewerMatched = 106
    /// t=107: shooter matching finished. App event `ShooterMatchingFinished`; evidence: the 2022 app's model; `BCResponse.ShooterMatchingFinished`.
    case shooterMatchingFinished = 107
    /// t=108: avatar shown or hidden. App event `EmomoVisibilityChanged`; evidence: the 2022 app's model; `BCResponse.EmomoVisibilityChanged`.
    case emomoVisibilityChanged = 108
    /// t=109: emomo quest game on or off. App event `EmomoQuestGameStateChanged`; evidence: the 2022 app's model; `BCResponse.EmomoQuestStateChanged`.
    case emomoQuestStateChanged = 109
    /// t=110: emomo quest game gift (fields not modelled). App event `EmomoQuestGameGiftReceived`; evidence: the 2022 app's model; `BCResponse.EmomoQuestGift`.
    case emomoQuestGift = 110
    /// t=111: mutual-gift goal achieved. App event `MutualGiftAchieved`; evidence: the 2022 app's model; `BCResponse.MutualGiftAchieved`.
    case mutualGiftAchieved = 111
    /// t=112: mutual-gift rewards to receive. App event `MutualGiftReceivableRewards`; evidence: the 2022 app's model; `BCResponse.MutualGiftRewards`.
    case mutualGiftRewards = 112
    /// t=113: lucky prize. App event `LuckyPrizeReceived`; evidence: the 2022 app's model; `BCResponse.LuckyPrize`.
    case luckyPrize = 113
    /// t=114: live-game interruptible flag. App event `LiveGameInterruptibleChanged`; evidence: the 2022 app's model; `BCResponse.LiveGameInterruptibleChanged`.
    case liveGameInterruptibleChanged = 114
    /// t=115: live-game playing, with its gifts. App event `LiveGamePlaying`; evidence: the 2022 app's model; `BCResponse.LiveGamePlaying`.
    case liveGamePlaying = 115
    /// t=116: cheer (yell) level-up. App event `CheerLevelUpCommentReceived`; evidence: the 2022 app's model; `BCResponse.CheerLevelUp`.
    case cheerLevelUp = 116
    /// t=117: focus event updated. App event `FocusEventUpdated`; evidence: the 2022 app's model; no payload.
    case focusEventUpdated = 117
    /// t=123: stream ended (newer servers). Not in the app; evidence: a third-party client reacts to it; fields unknown; no payload.
    case streamEnded = 123
}

extension BCType {
    /// How much to trust what the model says of a kind.
    public enum Evidence: String, Hashable, Sendable, Codable {
        /// Real payloads of this kind have been seen on the wire.
        case captured
        /// The official app decodes it with these keys; no capture has been seen.
        case appModel
        /// Keys from the app's model; the meaning is inferred from a name only.
        case appModelMeaningGuessed
        /// A third-party client reacts to this `t`; nothing is known of its fields.
        case clientCodeOnly
    }

    /// The short name used in output (`"gift"`): the case name.
    public var name: String { String(describing: self) }

    /// What a message of this kind means.
    public var meaning: String { Self.table[self]?.meaning ?? "" }

    /// The event name in the official app (`"GiftCommentReceived"`), or nil when the app does not know it.
    public var appEventName: String? { Self.table[self]?.appEventName }

    /// The evidence the model of this kind rests on.
    public var evidence: Evidence { Self.table[self]?.evidence ?? .clientCodeOnly }

    /// The payload struct carried by the `BCResponse` case (`"BCResponse.Gift"`), or nil for a bare case.
    public var payloadTypeName: String? { Self.table[self]?.payload.map { "BCResponse.\($0)" } }

    /// True for the kinds that end a live: a listener stops when it receives one.
    public var endsLive: Bool { self == .liveEnded || self == .streamEnded }

    /// Looks a kind up by its short name (`"gift"`).
    public init?(name: String) {
        guard let type = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = type
    }

    private struct Info {
        let meaning: String
        let appEventName: String?
        let evidence: Evidence
        let payload: String?
    }

    private static let table: [BCType: Info] = [
        .comment: Info(meaning: "viewer comment", appEventName: "LiveCommentReceived", evidence: .captured, payload: "Comment"),
        .join: Info(meaning: "viewer entered the live", appEventName: "LiveJoined", evidence: .captured, payload: "Join"),
        .follow: Info(meaning: "a viewer followed the streamer", appEventName: "StreamerFollowed", evidence: .appModel, payload: "Follow"),
        .liveChanged: Info(meaning: "live settings changed", appEventName: "LiveChanged", evidence: .captured, payload: "LiveChanged"),
        .liveEnded: Info(meaning: "stream ended", appEventName: "LiveEnded", evidence: .captured, payload: "LiveEnded"),
        .liveSelected: Info(meaning: "viewer went to another live", appEventName: "LiveSelected", evidence: .captured, payload: "LiveSelected"),
        .collabRequested: Info(meaning: "collab (co-stream) request", appEventName: "CollabRequested", evidence: .appModel, payload: "CollabRequested"),
        .collabAccepted: Info(meaning: "collab accepted", appEventName: "CollabAccepted", evidence: .appModel, payload: "CollabAccepted"),
        .collabCanceled: Info(meaning: "collab request canceled", appEventName: "CollabCanceled", evidence: .appModel, payload: "CollabCanceled"),
        .collabPeerSignal: Info(meaning: "collab peer signalling relay", appEventName: "CollabReceivedPeer", evidence: .appModelMeaningGuessed, payload: "CollabPeerSignal"),
        .collabClosed: Info(meaning: "collab ended", appEventName: "CollabClosed", evidence: .appModel, payload: "CollabClosed"),
        .liveURLShared: Info(meaning: "viewer shared the live URL", appEventName: "LiveUrlShared", evidence: .appModel, payload: "LiveURLShared"),
        .memo: Info(meaning: "memo or notice shown as a comment", appEventName: "MemoBroadcast", evidence: .appModelMeaningGuessed, payload: "Memo"),
        .viewerCountChanged: Info(meaning: "viewer counters", appEventName: "LiveViewerNumChanged", evidence: .appModel, payload: "ViewerCountChanged"),
        .liveLinked: Info(meaning: "this live linked to another live", appEventName: "LiveLinked", evidence: .appModel, payload: "LiveLinked"),
        .liveUnlinked: Info(meaning: "link removed", appEventName: "LiveUnlinked", evidence: .appModel, payload: nil),
        .linkedLiveEnded: Info(meaning: "linked live ended", appEventName: "LinkedLiveEnded", evidence: .appModel, payload: "LinkedLiveEnded"),
        .quizQuestion: Info(meaning: "quiz question shown", appEventName: "QuizStartQuestion", evidence: .appModel, payload: "Quiz"),
        .quizAnswer: Info(meaning: "quiz answer shown", appEventName: "QuizShowCorrectAnswer", evidence: .appModel, payload: "Quiz"),
        .quizPopupDismissed: Info(meaning: "close the quiz popup", appEventName: "QuizShowDismissPopup", evidence: .appModel, payload: nil),
        .avatar: Info(meaning: "streamer avatar (emomo) state", appEventName: nil, evidence: .captured, payload: "Avatar"),
        .gift: Info(meaning: "gift sent", appEventName: "GiftCommentReceived", evidence: .captured, payload: "Gift"),
        .topGifterChanged: Info(meaning: "top gifter changed", appEventName: "GiftRankingTopUserUpdated", evidence: .appModel, payload: "TopGifterChanged"),
        .topGifters: Info(meaning: "top-3 gifters", appEventName: "GiftRankingTopThreeUsers", evidence: .captured, payload: "TopGifters"),
        .announcementPopup: Info(meaning: "announcement popup", appEventName: "ShowViewerAnnouncementPopup", evidence: .appModel, payload: "AnnouncementPopup"),
        .appUserIDPosted: Info(meaning: "viewer posted their in-game user id", appEventName: "AppUserDetailCommentReceived", evidence: .appModel, payload: "AppUserIDPosted"),
        .moderatorChanged: Info(meaning: "moderator appointed or removed", appEventName: "ModeratorChange", evidence: .appModel, payload: "ModeratorChanged"),
        .feverChanged: Info(meaning: "fever meter", appEventName: "FeverValueChanged", evidence: .appModel, payload: "FeverChanged"),
        .stopBroadcasting: Info(meaning: "stop-broadcast order with a message", appEventName: "StopBroadcasting", evidence: .appModelMeaningGuessed, payload: "StopBroadcasting"),
        .giftPanelReload: Info(meaning: "client should reload the gift panel", appEventName: "GiftPanelReload", evidence: .appModel, payload: nil),
        .giftGacha: Info(meaning: "gift-gacha stock", appEventName: "ReceivedGiftGacha", evidence: .appModel, payload: "GiftGacha"),
        .emomoRunStateChanged: Info(meaning: "emomo-run mini-game on or off", appEventName: "EmomoRunStateChanged", evidence: .appModel, payload: "EmomoRunStateChanged"),
        .emomoRunGift: Info(meaning: "emomo-run game gift", appEventName: "EmomoRunGiftSent", evidence: .appModel, payload: "EmomoRunGift"),
        .emomoReload: Info(meaning: "reload avatar", appEventName: "ReloadEmomo", evidence: .appModel, payload: nil),
        .collabChanged: Info(meaning: "collab state", appEventName: "CollabChanged", evidence: .appModel, payload: "CollabChanged"),
        .userLevelUp: Info(meaning: "user level up", appEventName: "UpdateUserLevel", evidence: .appModel, payload: "UserLevelUp"),
        .userLevelGiftReload: Info(meaning: "reload level gift", appEventName: "ReloadUserLevelGift", evidence: .appModel, payload: "UserLevelGiftReload"),
        .collabInvited: Info(meaning: "streamer invited a viewer to collab", appEventName: "CollabInvited", evidence: .appModel, payload: "CollabInvited"),
        .collabInviteCanceledByStreamer: Info(meaning: "collab invite canceled by the streamer", appEventName: "CollabInviteCanceledByStreamer", evidence: .appModel, payload: "CollabInviteCanceledByStreamer"),
        .collabInviteCanceledByViewer: Info(meaning: "collab invite canceled by the viewer", appEventName: "CollabInviteCanceledByViewer", evidence: .appModel, payload: "CollabInviteCanceledByViewer"),
        .collabLeaderStreamingEnded: Info(meaning: "collab leader stopped streaming", appEventName: "CollabLeaderStreamingEnd", evidence: .appModel, payload: nil),
        .collabRecommendLive: Info(meaning: "recommend a collab live", appEventName: "CollabRecommendLive", evidence: .appModel, payload: "CollabRecommendLive"),
        .shooterMemberStateChanged: Info(meaning: "shooter mini-game member state", appEventName: "ShooterMemberStateChanged", evidence: .appModel, payload: "ShooterMemberStateChanged"),
        .shooterMatchingStateChanged: Info(meaning: "shooter matching state", appEventName: "ShooterMatchingStateChanged", evidence: .appModel, payload: "ShooterMatchingStateChanged"),
        .matchingLiveCanceled: Info(meaning: "live matching canceled", appEventName: "MatchingLiveCanceled", evidence: .appModel, payload: "MatchingLiveCanceled"),
        .matchingLive: Info(meaning: "matched with a live", appEventName: "MatchingLive", evidence: .appModel, payload: "MatchingLive"),
        .collabReadyMatching: Info(meaning: "collab matching ready", appEventName: "CollabReadyMatching", evidence: .appModel, payload: "CollabReadyMatching"),
        .collabNotEnoughHosts: Info(meaning: "collab matching found too few hosts", appEventName: "CollabNotFoundEnoughHosts", evidence: .appModel, payload: nil),
        .collabStartedByMatching: Info(meaning: "collab started by matching", appEventName: "CollabStartByMatching", evidence: .appModel, payload: "CollabStartedByMatching"),
        .collabEndedNotFollowing: Info(meaning: "collab ended: user not followed", appEventName: "CollabEndNotFollowUser", evidence: .appModel, payload: "CollabEndedNotFollowing"),
        .giftRankingChanged: Info(meaning: "event ranking changed", appEventName: "GiftRankingChanged", evidence: .appModel, payload: "GiftRankingChanged"),
        .matchingStarterToStarter: Info(meaning: "matched starter to starter", appEventName: "MatchingStarterToStarter", evidence: .appModel, payload: "MatchingStarterToStarter"),
        .liveGameConnected: Info(meaning: "live-game started or joined", appEventName: "LiveGameConnected", evidence: .appModel, payload: "LiveGameConnected"),
        .liveGameDisconnected: Info(meaning: "live-game disconnected", appEventName: "LiveGameDisconnected", evidence: .appModel, payload: "LiveGameDisconnected"),
        .liveGameEnded: Info(meaning: "live-game ended", appEventName: "LiveGameEnded", evidence: .appModel, payload: "LiveGameEnded"),
        .shooterViewerMatched: Info(meaning: "shooter viewer matched", appEventName: "ShooterViewerMatched", evidence: .appModel, payload: "ShooterViewerMatched"),
        .shooterMatchingFinished: Info(meaning: "shooter matching finished", appEventName: "ShooterMatchingFinished", evidence: .appModel, payload: "ShooterMatchingFinished"),
        .emomoVisibilityChanged: Info(meaning: "avatar shown or hidden", appEventName: "EmomoVisibilityChanged", evidence: .appModel, payload: "EmomoVisibilityChanged"),
        .emomoQuestStateChanged: Info(meaning: "emomo quest game on or off", appEventName: "EmomoQuestGameStateChanged", evidence: .appModel, payload: "EmomoQuestStateChanged"),
        .emomoQuestGift: Info(meaning: "emomo quest game gift (fields not modelled)", appEventName: "EmomoQuestGameGiftReceived", evidence: .appModel, payload: "EmomoQuestGift"),
        .mutualGiftAchieved: Info(meaning: "mutual-gift goal achieved", appEventName: "MutualGiftAchieved", evidence: .appModel, payload: "MutualGiftAchieved"),
        .mutualGiftRewards: Info(meaning: "mutual-gift rewards to receive", appEventName: "MutualGiftReceivableRewards", evidence: .appModel, payload: "MutualGiftRewards"),
        .luckyPrize: Info(meaning: "lucky prize", appEventName: "LuckyPrizeReceived", evidence: .appModel, payload: "LuckyPrize"),
        .liveGameInterruptibleChanged: Info(meaning: "live-game interruptible flag", appEventName: "LiveGameInterruptibleChanged", evidence: .appModel, payload: "LiveGameInterruptibleChanged"),
        .liveGamePlaying: Info(meaning: "live-game playing, with its gifts", appEventName: "LiveGamePlaying", evidence: .appModel, payload: "LiveGamePlaying"),
        .cheerLevelUp: Info(meaning: "cheer (yell) level-up", appEventName: "CheerLevelUpCommentReceived", evidence: .appModel, payload: "CheerLevelUp"),
        .focusEventUpdated: Info(meaning: "focus event updated", appEventName: "FocusEventUpdated", evidence: .appModel, payload: nil),
        .streamEnded: Info(meaning: "stream ended (newer servers)", appEventName: nil, evidence: .clientCodeOnly, payload: nil),
    ]
}
