// The direct extraction of the kinds of lesser traffic, one `init(tape:)` per payload struct, written
// mechanically from each struct's declaration: its public memberwise init, its properties' wrappers (required
// or optional, String/Int/Bool/Double, arrays, nested structs, open enums) and its CodingKeys. When a kind
// gains a key, add it here too: `FastEngineEquivalenceTests.directExtractionEqualsInitFromDecoder` fails for
// any fixture that carries the key, and every kind has fixtures (see `DirectExtraction.swift` for the rules).

extension BCResponse.AnnouncementPopup {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            announcementPopupURL: try object.string("announcement_popup_url"))
    }
}

extension BCResponse.AppUserIDPosted {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            user: try BCResponse.User(tape: object),
            type: try object.int("type"),
            appUserID: try object.string("cm"),
            collabStreamerName: try object.string("collab_streamer_ac"))
    }
}

extension BCResponse.CollabAccepted {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            userID: try object.string("u"))
    }
}

extension BCResponse.CollabCanceled {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            user: try BCResponse.User(tape: object),
            canceledUserID: try object.string("canceled_user_id"))
    }
}

extension BCResponse.CollabChanged {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            isConnectedStreamingCollab: try object.bool("is_connected_streaming_collab"))
    }
}

extension BCResponse.CollabClosed {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            user: try BCResponse.User(tape: object))
    }
}

extension BCResponse.CollabEndedNotFollowing {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            user: try BCResponse.User(tape: object))
    }
}

extension BCResponse.CollabInviteCanceledByStreamer {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            user: try BCResponse.User(tape: object),
            collabType: CollabType(rawValue: try object.int("collab_type")),
            invitedUserID: try object.string("invited_user_id"))
    }
}

extension BCResponse.CollabInviteCanceledByViewer {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            user: try BCResponse.User(tape: object),
            collabType: CollabType(rawValue: try object.int("collab_type")))
    }
}

extension BCResponse.CollabInvited {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            user: try BCResponse.User(tape: object),
            collabType: CollabType(rawValue: try object.int("collab_type")),
            invitedUserID: try object.string("invite_user_id"))
    }
}

extension BCResponse.CollabPeerSignal {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            senderID: try object.string("sender_id"),
            raw: try object.string("raw"))
    }
}

extension BCResponse.CollabReadyMatching {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            text: try object.string("cm"),
            speech: try object.string("speech"))
    }
}

extension BCResponse.CollabRecommendLive {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            user: try BCResponse.User(tape: object),
            text: try object.string("cm"),
            speech: try object.string("speech"),
            liveID: try object.string("live_id"))
    }
}

extension BCResponse.CollabRequested {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            user: try BCResponse.User(tape: object),
            collabType: try object.optionalInt("collab_type").map(CollabType.init(rawValue:)),
            isReconnect: try object.bool("is_reconnect"))
    }
}

extension BCResponse.CollabStartedByMatching {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            user: try BCResponse.User(tape: object))
    }
}

extension BCResponse.EmomoQuestStateChanged {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            giftEventID: try object.int("gift_event_id"),
            isQuesting: try object.bool("is_questing"))
    }
}

extension BCResponse.EmomoRunGift {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            user: try BCResponse.User(tape: object),
            consumedScore: try object.int("consumed_score"),
            gameGiftCommand: try object.string("game_gift_command"),
            gameGiftID: try object.int("game_gift_id"),
            gameGiftType: try object.int("game_gift_type"),
            giftEventID: try object.int("gift_event_id"))
    }
}

extension BCResponse.EmomoRunStateChanged {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            giftEventID: try object.int("gift_event_id"),
            isRunning: try object.bool("is_running"))
    }
}

extension BCResponse.EmomoVisibilityChanged {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            isVisible: try object.bool("is_visible"))
    }
}

extension BCResponse.FeverChanged {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            currentMeter: try object.int("current_meter"),
            maxMeter: try object.int("max_meter"),
            startsAt: try object.int("starts_at"),
            endsAt: try object.int("ends_at"))
    }
}

extension BCResponse.GiftGacha {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            type: GiftGachaType(rawValue: try object.int("type")),
            giftEventID: try object.int("gift_event_id"),
            senderID: try object.string("sender_id"),
            count: try object.int("count"),
            imageURL: try object.string("image_url"),
            stockImageURL: try object.string("stock_image_url"),
            time: try object.int("time"),
            collabUserID: try object.optionalString("collab_user_id"))
    }
}

extension BCResponse.GiftRankingChanged {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            eventID: try object.int("ei"),
            isAppEvent: try object.bool("iae"),
            nanoTime: try object.int("nt"),
            rank: try object.int("r"),
            rankText: try object.string("rt"),
            rankingPoint: try object.int("rp"))
    }
}

extension BCResponse.LinkedLiveEnded {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            linkedLive: try LinkedLive(tape: try object.object("linked_live")))
    }
}

extension BCResponse.LinkedLiveEnded.LinkedLive {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            liveID: try object.string("live_id"),
            ownerName: try object.string("owner_name"))
    }
}

extension BCResponse.LiveEnded {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            delay: try object.optionalObject("delay").map { (nested) throws(FastMiss) in try Delay(tape: nested) })
    }
}

extension BCResponse.LiveEnded.Delay {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            uniformMin: try object.double("uniMin"),
            uniformMax: try object.double("uniMax"),
            exponentialMultiplier: try object.double("expMultiplier"))
    }
}

extension BCResponse.LiveGameConnected {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            liveGameID: try object.string("live_game_id"),
            playID: try object.string("play_id"),
            title: try object.string("title"),
            requestUserID: try object.string("request_user_id"),
            requestUserName: try object.string("request_user_name"),
            requestUserImageURL: try object.string("request_user_image_url"),
            requestUserBadgeURL: try object.string("request_user_badge_url"),
            userIDs: try object.forcedArray("user_ids", object.document.forceString))
    }
}

extension BCResponse.LiveGameDisconnected {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            liveGameID: try object.string("live_game_id"),
            userIDs: try object.forcedArray("user_ids", object.document.forceString))
    }
}

extension BCResponse.LiveGameEnded {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            liveGameID: try object.string("live_game_id"))
    }
}

extension BCResponse.LiveGameInterruptibleChanged {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            isInterruptible: try object.bool("interruptible"),
            sentAt: try object.int("sent_at"))
    }
}

extension BCResponse.LiveGamePlaying {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            liveGameID: try object.string("live_game_id"),
            viewerSelfStartIconURL: try object.string("viewer_self_start_icon_url"),
            gifts: try object.objects("gifts") { (element) throws(FastMiss) in try LiveGameGift(tape: element) })
    }
}

extension BCResponse.LiveGamePlaying.LiveGameGift {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            id: try object.string("id"),
            coins: try object.int("coins"),
            effectType: try object.int("effect_type"),
            iconURL: try object.string("icon_url"))
    }
}

extension BCResponse.LiveLinked {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            linkedLive: try LinkedLive(tape: try object.object("linked_live")),
            live: try LinkedLive(tape: try object.object("live")))
    }
}

extension BCResponse.LiveLinked.LinkedLive {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            liveID: try object.string("live_id"),
            ownerID: try object.string("owner_id"),
            ownerName: try object.string("owner_name"),
            ownerImageURL: try object.string("owner_image_url"),
            ownerBadgeImageURL: try object.string("owner_badge_image_url"))
    }
}

extension BCResponse.LiveSelected {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            user: try BCResponse.User(tape: object),
            ownerName: try object.string("owner_name"),
            targetLiveID: try object.optionalString("target_live_id"))
    }
}

extension BCResponse.LiveURLShared {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            user: try BCResponse.User(tape: object),
            isModerator: try object.bool("is_moderator"))
    }
}

extension BCResponse.LuckyPrize {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            user: try BCResponse.User(tape: object),
            speech: try object.string("speech"),
            rewardTitle: try object.string("reward_title"),
            rewardImageURL: try object.string("reward_image_url"))
    }
}

extension BCResponse.MatchingLive {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            text: try object.string("cm"),
            speech: try object.string("speech"),
            matchedLiveID: try object.string("matched_live_id"))
    }
}

extension BCResponse.MatchingLiveCanceled {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            userID: try object.string("user_id"))
    }
}

extension BCResponse.MatchingStarterToStarter {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            matchedLiveID: try object.string("matched_live_id"))
    }
}

extension BCResponse.ModeratorChanged {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            moderatorUserID: try object.string("moderator_user_id"),
            isAppointed: try object.bool("is_appoint"))
    }
}

extension BCResponse.MutualGiftAchieved {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            achievedAt: try object.int("achieved_at"),
            eventID: try object.int("event_id"),
            streamer: try Participant(tape: try object.object("streamer")),
            viewer: try Participant(tape: try object.object("viewer")))
    }
}

extension BCResponse.MutualGiftAchieved.Participant {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            userID: try object.string("user_id"),
            profileImageURL: try object.string("profile_image_url"))
    }
}

extension BCResponse.MutualGiftRewards {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            receivableRewards: try object.objects("receivable_rewards") { (element) throws(FastMiss) in
                try BCResponse.MutualGiftAchieved(tape: element)
            })
    }
}

extension BCResponse.Quiz {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            info: try Info(tape: try object.object("quiz")),
            question: try Question(tape: try object.object("question")))
    }
}

extension BCResponse.Quiz.Info {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            id: try object.string("id"),
            remainingUserCount: try object.int("remaining_user_num"),
            totalQuestionCount: try object.int("total_question_num"),
            totalUserCount: try object.int("total_user_num"))
    }
}

extension BCResponse.Quiz.Question {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            answers: try object.forcedArray("answers", object.document.forceString),
            body: try object.string("body"),
            correctAnswerNth: try object.int("correct_answer_nth"),
            dismissPopupAfter: try object.int("dismiss_popup_after"),
            nth: try object.int("nth"),
            remainingTime: try object.int("remaining_time"))
    }
}

extension BCResponse.ShooterMatchingFinished {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            time: try object.int("time"))
    }
}

extension BCResponse.ShooterMatchingStateChanged {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            groupID: try object.optionalInt("group_id"),
            groupStatus: try object.int("group_status"),
            hostMemberType: try object.int("host_member_type"),
            teamStatus: try object.int("team_status"),
            memberUserIDs: try object.forcedArray("member_user_ids", object.document.forceString),
            roomID: try object.string("room_id"),
            seasonID: try object.int("season_id"),
            stageID: try object.string("stage_id"),
            teamID: try object.int("team_id"))
    }
}

extension BCResponse.ShooterMemberStateChanged {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            memberStatus: try object.int("member_status"),
            memberType: try object.int("member_type"),
            seasonID: try object.int("season_id"),
            teamID: try object.int("team_id"),
            memberUserID: try object.string("member_user_id"))
    }
}

extension BCResponse.ShooterViewerMatched {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            name: try object.string("name"),
            profileImageURL: try object.string("profile_image_url"),
            userID: try object.string("user_id"))
    }
}

extension BCResponse.StopBroadcasting {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            message: try object.string("msg"))
    }
}

extension BCResponse.TopGifterChanged {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            userID: try object.string("u"),
            profileImageURL: try object.string("iurl"),
            badgeImageURL: try object.string("burl"))
    }
}

extension BCResponse.UserLevelGiftReload {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            userID: try object.string("u"))
    }
}
