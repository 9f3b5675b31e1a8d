import BCKindsGenerator

extension Catalogue {
    /// Every kind BCStream knows, in `t` order (one `BCType` case and one `BCResponse` case each), and the
    /// structs that are no kind's payload. A kind with keys is declared in `Catalogue/Kinds/<Payload>.swift`
    /// (its `t`, name, meaning, app event, evidence and payload struct); the kinds without keys, here.
    public static let bcstream = Catalogue(
        kinds: [
            comment, join, follow, liveChanged, liveEnded, liveSelected, collabRequested, collabAccepted,
            collabCanceled, collabPeerSignal, collabClosed, liveURLShared, memo, viewerCountChanged, liveLinked,
            Kind(27, "liveUnlinked", "link removed", app: "LiveUnlinked", .appModel),
            linkedLiveEnded, quizQuestion, quizAnswer,
            Kind(31, "quizPopupDismissed", "close the quiz popup", app: "QuizShowDismissPopup", .appModel),
            avatar, gift, topGifterChanged, topGifters, announcementPopup, appUserIDPosted, moderatorChanged,
            feverChanged, stopBroadcasting,
            Kind(61, "giftPanelReload", "client should reload the gift panel", app: "GiftPanelReload", .appModel),
            giftGacha, emomoRunStateChanged, emomoRunGift,
            Kind(69, "emomoReload", "reload avatar", app: "ReloadEmomo", .appModel),
            collabChanged, userLevelUp, userLevelGiftReload, collabInvited, collabInviteCanceledByStreamer,
            collabInviteCanceledByViewer,
            Kind(76, "collabLeaderStreamingEnded", "collab leader stopped streaming",
                app: "CollabLeaderStreamingEnd", .appModel),
            collabRecommendLive, shooterMemberStateChanged, shooterMatchingStateChanged, matchingLiveCanceled,
            matchingLive, collabReadyMatching,
            Kind(86, "collabNotEnoughHosts", "collab matching found too few hosts",
                app: "CollabNotFoundEnoughHosts", .appModel),
            collabStartedByMatching, collabEndedNotFollowing, giftRankingChanged, matchingStarterToStarter,
            liveGameConnected, liveGameDisconnected, liveGameEnded, shooterViewerMatched, shooterMatchingFinished,
            emomoVisibilityChanged, emomoQuestStateChanged,
            Kind(110, "emomoQuestGift", "emomo quest game gift (fields not modelled)",
                app: "EmomoQuestGameGiftReceived", .appModel, payload: .handWritten("EmomoQuestGift")),
            mutualGiftAchieved, mutualGiftRewards, luckyPrize, liveGameInterruptibleChanged, liveGamePlaying,
            cheerLevelUp,
            Kind(117, "focusEventUpdated", "focus event updated", app: "FocusEventUpdated", .appModel),
            Kind(123, "streamEnded", "stream ended (newer servers)", app: nil, .clientCodeOnly),
        ],
        shared: [user, commentAttributes, giftRanking])
}
