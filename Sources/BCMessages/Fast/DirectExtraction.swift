/// Direct extraction: every kind's fields read straight off the tape by key, with no `Decoder`, no containers
/// and no existentials. The kinds of nearly all real traffic (comments, gifts with their rankings, joins,
/// follows, memos, viewer counts) and the large ones are here; the others are in `DirectExtraction+Kinds.swift`.
///
/// Each `init(tape:)` must build exactly what the kind's `init(from:)` builds. It only ever takes the happy
/// path: at the first irregularity (a key missing, a value no rule accepts) it throws `FastMiss`, and the
/// engine decodes the message again through `init(from:)` over the tape, which gives the precise error (or,
/// should the two ever disagree, the reference value). `FastEngineEquivalenceTests` compares the two.
struct FastMiss: Error {}

/// An object of the tape, read by key with the `Forcible` rules.
struct TapeObject {
    let document: TapeDocument
    let table: TapeDocument.MemberTable

    init(_ document: TapeDocument, at index: Int32) throws(FastMiss) {
        guard document.entries[Int(index)].kind == .object else { throw FastMiss() }
        self.document = document
        table = document.memberTable(of: index)
        if table.hasInvalidKey { throw FastMiss() }
    }

    /// The value for a key that must be there and not null.
    @inline(__always)
    private func present(_ key: String) throws(FastMiss) -> Int32 {
        guard let index = document.value(forKey: key, in: table), document.entries[Int(index)].kind != .null
        else { throw FastMiss() }
        return index
    }

    /// The value for an optional key: nil when absent or null.
    @inline(__always)
    private func optional(_ key: String) -> Int32? {
        guard let index = document.value(forKey: key, in: table), document.entries[Int(index)].kind != .null
        else { return nil }
        return index
    }

    @inline(__always)
    private func read<Value>(_ index: Int32, _ rule: (Int32) -> Value?) throws(FastMiss) -> Value {
        guard let value = rule(index) else { throw FastMiss() }
        return value
    }

    func string(_ key: String) throws(FastMiss) -> String { try read(try present(key), document.forceString) }
    func int(_ key: String) throws(FastMiss) -> Int { try read(try present(key), document.forceInt) }
    func bool(_ key: String) throws(FastMiss) -> Bool { try read(try present(key), document.forceBool) }
    func double(_ key: String) throws(FastMiss) -> Double { try read(try present(key), document.forceDouble) }

    func optionalString(_ key: String) throws(FastMiss) -> String? {
        guard let index = optional(key) else { return nil }
        return try read(index, document.forceString)
    }

    func optionalInt(_ key: String) throws(FastMiss) -> Int? {
        guard let index = optional(key) else { return nil }
        return try read(index, document.forceInt)
    }

    func optionalBool(_ key: String) throws(FastMiss) -> Bool? {
        guard let index = optional(key) else { return nil }
        return try read(index, document.forceBool)
    }

    func optionalDouble(_ key: String) throws(FastMiss) -> Double? {
        guard let index = optional(key) else { return nil }
        return try read(index, document.forceDouble)
    }

    func optionalYellRank(_ key: String) throws(FastMiss) -> YellRank? {
        try optionalInt(key).map(YellRank.init(rawValue:))
    }

    /// An optional array whose elements are each a forcible String (`@OptionalForcibleArray var x: [String]?`).
    func optionalStrings(_ key: String) throws(FastMiss) -> [String]? {
        guard let index = optional(key) else { return nil }
        guard document.entries[Int(index)].kind == .array else { throw FastMiss() }
        var result: [String] = []
        result.reserveCapacity(Int(document.entries[Int(index)].b))
        var element = index + 1
        for _ in 0..<document.entries[Int(index)].b {
            guard document.entries[Int(element)].kind != .null else { throw FastMiss() }
            result.append(try read(element, document.forceString))
            element = document.next(after: element)
        }
        return result
    }

    func yellRank(_ key: String) throws(FastMiss) -> YellRank { YellRank(rawValue: try int(key)) }

    /// A nested object that must be there (`var x: T`).
    func object(_ key: String) throws(FastMiss) -> TapeObject { try TapeObject(document, at: try present(key)) }

    /// A nested object that may be absent or null (`var x: T?`).
    func optionalObject(_ key: String) throws(FastMiss) -> TapeObject? {
        guard let index = optional(key) else { return nil }
        return try TapeObject(document, at: index)
    }

    /// An array of forcible elements that must be there (`@ForcibleArray var x: [String]`).
    func forcedArray<Element>(_ key: String, _ rule: (Int32) -> Element?) throws(FastMiss) -> [Element] {
        try forcedElements(try present(key), rule)
    }

    /// An optional array of forcible elements (`@OptionalForcibleArray var x: [Int]?`).
    func optionalForcedArray<Element>(_ key: String, _ rule: (Int32) -> Element?) throws(FastMiss) -> [Element]? {
        guard let index = optional(key) else { return nil }
        return try forcedElements(index, rule)
    }

    private func forcedElements<Element>(_ index: Int32, _ rule: (Int32) -> Element?) throws(FastMiss) -> [Element] {
        guard document.entries[Int(index)].kind == .array else { throw FastMiss() }
        var result: [Element] = []
        result.reserveCapacity(Int(document.entries[Int(index)].b))
        var element = index + 1
        for _ in 0..<document.entries[Int(index)].b {
            guard document.entries[Int(element)].kind != .null else { throw FastMiss() }
            result.append(try read(element, rule))
            element = document.next(after: element)
        }
        return result
    }

    /// An optional object of forcible strings (`@Forcible var x: [String: String]?`); the first of duplicate
    /// keys wins.
    func optionalStringDictionary(_ key: String) throws(FastMiss) -> [String: String]? {
        guard let index = optional(key) else { return nil }
        guard document.entries[Int(index)].kind == .object else { throw FastMiss() }
        var result: [String: String] = [:]
        var member = index + 1
        for _ in 0..<document.entries[Int(index)].b {
            guard let name = document.string(at: member) else { throw FastMiss() }
            if result[name] == nil {
                guard document.entries[Int(member + 1)].kind != .null else { throw FastMiss() }
                result[name] = try read(member + 1, document.forceString)
            }
            member = document.next(after: member + 1)
        }
        return result
    }

    /// An array of objects that must be there (`var x: [T]`).
    func objects<T>(_ key: String, _ make: (TapeObject) throws(FastMiss) -> T) throws(FastMiss) -> [T] {
        guard let objects = try optionalObjects(key, make) else { throw FastMiss() }
        return objects
    }

    /// The whole object as `JSONValue`s, as `[String: JSONValue](from:)` reads it.
    func jsonObject() throws(FastMiss) -> [String: JSONValue] {
        guard let index = table.objectIndex, case .object(let members)? = try? document.jsonValue(at: index)
        else { throw FastMiss() }
        return members
    }

    /// An optional array of objects (`var x: [T]?`, each element required).
    func optionalObjects<T>(_ key: String, _ make: (TapeObject) throws(FastMiss) -> T) throws(FastMiss) -> [T]? {
        guard let index = optional(key) else { return nil }
        guard document.entries[Int(index)].kind == .array else { throw FastMiss() }
        var result: [T] = []
        result.reserveCapacity(Int(document.entries[Int(index)].b))
        var element = index + 1
        for _ in 0..<document.entries[Int(index)].b {
            result.append(try make(try TapeObject(document, at: element)))
            element = document.next(after: element)
        }
        return result
    }
}

extension BCResponse {
    /// Every kind, read by direct extraction (the switch is exhaustive: a new kind needs its `init(tape:)`).
    static func extractDirectly(_ type: BCType, from object: TapeObject) throws(FastMiss) -> BCResponse {
        switch type {
        case .comment: .comment(try Comment(tape: object))
        case .gift: .gift(try Gift(tape: object))
        case .join: .join(try Join(tape: object))
        case .follow: .follow(try Follow(tape: object))
        case .memo: .memo(try Memo(tape: object))
        case .viewerCountChanged: .viewerCountChanged(try ViewerCountChanged(tape: object))
        case .avatar: .avatar(try Avatar(tape: object))
        case .liveChanged: .liveChanged(try LiveChanged(tape: object))
        case .topGifters: .topGifters(try TopGifters(tape: object))
        case .userLevelUp: .userLevelUp(try UserLevelUp(tape: object))
        case .cheerLevelUp: .cheerLevelUp(try CheerLevelUp(tape: object))
        case .emomoQuestGift: .emomoQuestGift(try EmomoQuestGift(tape: object))
        case .liveEnded: .liveEnded(try LiveEnded(tape: object))
        case .liveSelected: .liveSelected(try LiveSelected(tape: object))
        case .collabRequested: .collabRequested(try CollabRequested(tape: object))
        case .collabAccepted: .collabAccepted(try CollabAccepted(tape: object))
        case .collabCanceled: .collabCanceled(try CollabCanceled(tape: object))
        case .collabPeerSignal: .collabPeerSignal(try CollabPeerSignal(tape: object))
        case .collabClosed: .collabClosed(try CollabClosed(tape: object))
        case .liveURLShared: .liveURLShared(try LiveURLShared(tape: object))
        case .liveLinked: .liveLinked(try LiveLinked(tape: object))
        case .linkedLiveEnded: .linkedLiveEnded(try LinkedLiveEnded(tape: object))
        case .quizQuestion: .quizQuestion(try Quiz(tape: object))
        case .quizAnswer: .quizAnswer(try Quiz(tape: object))
        case .topGifterChanged: .topGifterChanged(try TopGifterChanged(tape: object))
        case .announcementPopup: .announcementPopup(try AnnouncementPopup(tape: object))
        case .appUserIDPosted: .appUserIDPosted(try AppUserIDPosted(tape: object))
        case .moderatorChanged: .moderatorChanged(try ModeratorChanged(tape: object))
        case .feverChanged: .feverChanged(try FeverChanged(tape: object))
        case .stopBroadcasting: .stopBroadcasting(try StopBroadcasting(tape: object))
        case .giftGacha: .giftGacha(try GiftGacha(tape: object))
        case .emomoRunStateChanged: .emomoRunStateChanged(try EmomoRunStateChanged(tape: object))
        case .emomoRunGift: .emomoRunGift(try EmomoRunGift(tape: object))
        case .collabChanged: .collabChanged(try CollabChanged(tape: object))
        case .userLevelGiftReload: .userLevelGiftReload(try UserLevelGiftReload(tape: object))
        case .collabInvited: .collabInvited(try CollabInvited(tape: object))
        case .collabInviteCanceledByStreamer:
            .collabInviteCanceledByStreamer(try CollabInviteCanceledByStreamer(tape: object))
        case .collabInviteCanceledByViewer:
            .collabInviteCanceledByViewer(try CollabInviteCanceledByViewer(tape: object))
        case .collabRecommendLive: .collabRecommendLive(try CollabRecommendLive(tape: object))
        case .shooterMemberStateChanged: .shooterMemberStateChanged(try ShooterMemberStateChanged(tape: object))
        case .shooterMatchingStateChanged: .shooterMatchingStateChanged(try ShooterMatchingStateChanged(tape: object))
        case .matchingLiveCanceled: .matchingLiveCanceled(try MatchingLiveCanceled(tape: object))
        case .matchingLive: .matchingLive(try MatchingLive(tape: object))
        case .collabReadyMatching: .collabReadyMatching(try CollabReadyMatching(tape: object))
        case .collabStartedByMatching: .collabStartedByMatching(try CollabStartedByMatching(tape: object))
        case .collabEndedNotFollowing: .collabEndedNotFollowing(try CollabEndedNotFollowing(tape: object))
        case .giftRankingChanged: .giftRankingChanged(try GiftRankingChanged(tape: object))
        case .matchingStarterToStarter: .matchingStarterToStarter(try MatchingStarterToStarter(tape: object))
        case .liveGameConnected: .liveGameConnected(try LiveGameConnected(tape: object))
        case .liveGameDisconnected: .liveGameDisconnected(try LiveGameDisconnected(tape: object))
        case .liveGameEnded: .liveGameEnded(try LiveGameEnded(tape: object))
        case .shooterViewerMatched: .shooterViewerMatched(try ShooterViewerMatched(tape: object))
        case .shooterMatchingFinished: .shooterMatchingFinished(try ShooterMatchingFinished(tape: object))
        case .emomoVisibilityChanged: .emomoVisibilityChanged(try EmomoVisibilityChanged(tape: object))
        case .emomoQuestStateChanged: .emomoQuestStateChanged(try EmomoQuestStateChanged(tape: object))
        case .mutualGiftAchieved: .mutualGiftAchieved(try MutualGiftAchieved(tape: object))
        case .mutualGiftRewards: .mutualGiftRewards(try MutualGiftRewards(tape: object))
        case .luckyPrize: .luckyPrize(try LuckyPrize(tape: object))
        case .liveGameInterruptibleChanged:
            .liveGameInterruptibleChanged(try LiveGameInterruptibleChanged(tape: object))
        case .liveGamePlaying: .liveGamePlaying(try LiveGamePlaying(tape: object))
        case .liveUnlinked: .liveUnlinked
        case .quizPopupDismissed: .quizPopupDismissed
        case .giftPanelReload: .giftPanelReload
        case .emomoReload: .emomoReload
        case .collabLeaderStreamingEnded: .collabLeaderStreamingEnded
        case .collabNotEnoughHosts: .collabNotEnoughHosts
        case .focusEventUpdated: .focusEventUpdated
        case .streamEnded: .streamEnded
        }
    }
}

extension BCResponse.User {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(id: try object.string("u"), name: try object.string("ac"),
                  profileImageURL: try object.optionalString("iurl"), badgeImageURL: try object.optionalString("burl"))
    }
}

extension BCResponse.CommentAttributes {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            speech: try object.optionalString("speech"), isModerator: try object.optionalBool("is_moderator"),
            isCheerleader: try object.optionalBool("is_cheerleader"),
            yellRank: try object.optionalYellRank("yell_rank"),
            yellLevel: try object.optionalInt("yell_level"),
            linkedLiveOwnerName: try object.optionalString("linked_live_owner_name"),
            descriptionText: try object.optionalString("description"),
            collabStreamerName: try object.optionalString("collab_streamer_ac"),
            avatarBodyImageURL: try object.optionalString("avatar_body_image_url"),
            createdAt: try object.optionalInt("created_at"), d: try object.optionalInt("d"),
            pushImageURL: try object.optionalString("push_image_url"), vipRank: try object.optionalInt("vip_rank"),
            profileFrameImageURL: try object.optionalString("profile_frame_image_url"))
    }
}

extension BCResponse.Comment {
    init(tape object: TapeObject) throws(FastMiss) {
        let user = try BCResponse.User(tape: object)
        let attributes = try BCResponse.CommentAttributes(tape: object)
        self.init(user: user, text: try object.string("cm"), commentID: try object.string("lci"),
                  attributes: attributes)
    }
}

extension BCResponse.Join {
    init(tape object: TapeObject) throws(FastMiss) {
        let user = try BCResponse.User(tape: object)
        let attributes = try BCResponse.CommentAttributes(tape: object)
        self.init(user: user, text: try object.optionalString("cm"), commentID: try object.string("lci"),
                  onlineViewerCount: try object.optionalInt("online_viewer_num"), attributes: attributes)
    }
}

extension BCResponse.Follow {
    init(tape object: TapeObject) throws(FastMiss) {
        let user = try BCResponse.User(tape: object)
        let attributes = try BCResponse.CommentAttributes(tape: object)
        self.init(user: user, text: try object.optionalString("cm"), commentID: try object.optionalString("lci"),
                  attributes: attributes)
    }
}

extension BCResponse.Memo {
    init(tape object: TapeObject) throws(FastMiss) {
        let user = try BCResponse.User(tape: object)
        let attributes = try BCResponse.CommentAttributes(tape: object)
        self.init(user: user, text: try object.string("cm"), commentID: try object.optionalString("lci"),
                  attributes: attributes)
    }
}

extension BCResponse.ViewerCountChanged {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(onlineViewerCount: try object.int("online_viewer_num"),
                  totalViewerCount: try object.int("total_viewer_num"))
    }
}

extension BCResponse.Gift {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            user: try BCResponse.User(tape: object),
            giftID: try object.string("gift_id"), giftTitle: try object.string("gift_title"),
            giftType: try object.optionalInt("gift_type"),
            giftSmallImageURL: try object.optionalString("gift_small_image_url"),
            giftLargeImageURL: try object.optionalString("gift_large_image_url"),
            coins: try object.int("coins"), count: try object.int("count"),
            totalGiftCoins: try object.optionalInt("total_gift_coins"),
            nameplateEnabled: try object.optionalInt("nameplate_enabled"),
            pauseDuration: try object.optionalDouble("pause_duration"),
            orientations: try object.optionalInt("orientations"),
            shouldPlayAnimation: try object.optionalBool("should_play_animation"),
            isModerator: try object.optionalBool("is_moderator"),
            isCheerleader: try object.optionalBool("is_cheerleader"),
            becameCheerleader: try object.optionalBool("became_cheerleader"),
            isLastSent: try object.optionalBool("ils"),
            liveSentGiftID: try object.optionalString("live_sent_gift_id"),
            slotID: try object.optionalString("slot_id"),
            speech: try object.optionalString("speech"),
            collabStreamerName: try object.optionalString("collab_streamer_ac"),
            avatarBodyImageURL: try object.optionalString("avatar_body_image_url"),
            avatarUserIDs: try object.optionalString("avatar_user_ids"),
            effectID: try object.optionalString("effect_id"),
            poseID: try object.optionalString("pose_id"), message: try object.optionalString("message"),
            shareText: try object.optionalString("share_text"), point: try object.optionalInt("p"),
            yellRank: try object.optionalYellRank("yell_rank"), yellLevel: try object.optionalInt("yell_level"),
            rankings: try object.optionalObjects("rankings") { (ranking) throws(FastMiss) in
                try BCResponse.GiftRanking(tape: ranking)
            },
            photoGiftID: try object.optionalString("photo_gift_id"),
            isPhotoGift: try object.optionalBool("is_photo_gift"),
            photoGiftImageURL: try object.optionalString("photo_gift_image_url"))
    }
}

extension BCResponse.GiftRanking {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            eventID: try object.optionalInt("ei"), eventTitle: try object.optionalString("et"),
            eventIconURL: try object.optionalString("eiu"), isAppEvent: try object.optionalBool("iae"),
            isFocus: try object.optionalBool("is_focus"), nanoTime: try object.optionalInt("nt"),
            rank: try object.optionalInt("r"), rankText: try object.optionalString("rt"),
            showsRankUpAnimation: try object.optionalBool("re"), rankingPoint: try object.optionalInt("rp"),
            totalPoint: try object.optionalInt("tp"), casterRankAfter: try object.optionalInt("car"),
            casterRankBefore: try object.optionalInt("cbr"), casterGrade: try object.optionalString("cg"),
            senderRankAfter: try object.optionalInt("sar"), senderRankBefore: try object.optionalInt("sbr"),
            senderGrade: try object.optionalString("sg"), isBannedUser: try object.optionalBool("ibu"),
            rewardAchievedPoint: try object.optionalInt("rap"), rewardNeedPoint: try object.optionalInt("rnp"),
            rewardIconURL: try object.optionalString("riu"), achievedRewardIconURLs: try object.optionalStrings("ari"),
            bannerIconImageURL: try object.optionalString("biiu"), bannerLinkURL: try object.optionalString("bilu"),
            nearbyCasters: try object.optionalObjects("nrc") { (user) throws(FastMiss) in try NearbyUser(tape: user) },
            nearbySenders: try object.optionalObjects("nrs") { (user) throws(FastMiss) in try NearbyUser(tape: user) })
    }
}

extension BCResponse.GiftRanking.NearbyUser {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            userID: try object.optionalString("u"), name: try object.optionalString("n"),
            iconURL: try object.optionalString("iu"), badgeImageURL: try object.optionalString("biu"),
            labelImageURL: try object.optionalString("liu"), rank: try object.optionalInt("r"),
            giftPoint: try object.optionalInt("gp"))
    }
}

extension BCResponse.Unknown {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(t: try object.int("t"), json: try object.jsonObject())
    }
}

extension BCResponse.EmomoQuestGift {
    init(tape object: TapeObject) throws(FastMiss) {
        var fields = try object.jsonObject()
        fields.removeValue(forKey: "t")
        self.init(fields: fields)
    }
}

extension BCResponse.CheerLevelUp {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            user: try BCResponse.User(tape: object), text: try object.string("cm"), speech: try object.string("speech"),
            isYellRankUp: try object.bool("is_yell_rank_up"),
            yellBonusDescription: try object.string("yell_bonus_description"), yellLevel: try object.int("yell_level"),
            yellLPURL: try object.string("yell_lp_url"), yellRank: try object.yellRank("yell_rank"))
    }
}

extension BCResponse.TopGifters {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(users: try object.objects("users") { (user) throws(FastMiss) in
            RankingUser(userID: try user.string("u"), name: try user.optionalString("ac"),
                        profileImageURL: try user.string("iurl"), badgeImageURL: try user.string("burl"))
        })
    }
}

extension BCResponse.UserLevelUp {
    init(tape object: TapeObject) throws(FastMiss) {
        let document = object.document
        self.init(
            userID: try object.string("u"), addedExperiencePoints: try object.int("add_ex_point"),
            experiencePoints: try object.int("ex_point"), level: try object.int("level"),
            nextLevelExperiencePoints: try object.int("next_level_ex_point"),
            levelImageURL: try object.string("level_image_url"), levelColorCode: try object.string("level_color_code"),
            levelBorderColorCode: try object.string("level_border_color_code"),
            levelGaugeColorCodes: try object.forcedArray("level_gauge_color_codes", document.forceString),
            userLevelGiftPanelText: try object.string("user_level_gift_panel_text"),
            unlocks: try object.objects("unlocks") { (unlock) throws(FastMiss) in
                Unlock(itemImageURL: try unlock.string("item_image_url"), itemName: try unlock.string("item_name"),
                       level: try unlock.int("level"), nextItemName: try unlock.string("next_item_name"),
                       nextLevel: try unlock.int("next_level"))
            })
    }
}

extension BCResponse.LiveChanged {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            app: try object.optionalObject("app").map { (app) throws(FastMiss) in try App(tape: app) },
            isCollabEnabled: try object.optionalBool("collab_enabled"),
            collabHasVacancy: try object.optionalBool("collab_has_vacancy"),
            orientation: try object.optionalString("orientation_v2"), createdAt: try object.optionalInt("created_at"),
            isStickerEnabled: try object.optionalBool("sticker_enabled"))
    }
}

extension BCResponse.LiveChanged.App {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            appID: try object.optionalString("app_id"), title: try object.optionalString("title"),
            shortTitle: try object.optionalString("short_title"), iconURL: try object.optionalString("icon_url"),
            appUserIDLabel: try object.optionalString("app_user_id_label"),
            isAppUserIDHidden: try object.optionalBool("is_app_user_id_hidden"),
            isListing: try object.optionalBool("is_listing"), isCategory: try object.optionalBool("is_category"),
            isPR: try object.optionalBool("is_pr"), isPushEnabled: try object.optionalBool("push_enabled"))
    }
}

extension BCResponse.Avatar {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(state: try State(tape: try object.object("avatar")))
    }
}

extension BCResponse.Avatar.State {
    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            wipePosition: try object.optionalInt("wipe_position"),
            isFullscreen: try object.optionalBool("is_fullscreen"),
            background: try BCResponse.Avatar.Item(optional: try object.optionalObject("background")),
            assetBundleURL: try object.optionalString("asset_bundle_url"), camera: try object.optionalString("camera"),
            body: try object.optionalObject("body").map { (body) throws(FastMiss) in
                try BCResponse.Avatar.Body(tape: body)
            },
            wipeCameras: try object.optionalStringDictionary("wipe_cameras"),
            isEnabled: try object.optionalBool("enabled"))
    }
}

extension BCResponse.Avatar.Body {
    init(tape object: TapeObject) throws(FastMiss) {
        typealias Item = BCResponse.Avatar.Item
        let document = object.document
        self.init(
            id: try object.optionalString("id"), iconURL: try object.optionalString("icon_url"),
            assetBundleName: try object.optionalString("asset_bundle_name"),
            assetBundlePrefabName: try object.optionalString("asset_bundle_prefab_name"),
            skinColor: try object.optionalInt("skin_color"),
            hairColor: try object.optionalObject("hair_color").map { (color) throws(FastMiss) in
                BCResponse.Avatar.HairColor(gradient: try color.optionalForcedArray("gradient", document.forceInt))
            },
            hairColorPercentage: try object.optionalDouble("hair_color_percentage"),
            head: try Item(optional: try object.optionalObject("head")),
            eye: try Item(optional: try object.optionalObject("eye")),
            mouth: try Item(optional: try object.optionalObject("mouth")),
            hair: try Item(optional: try object.optionalObject("hair")),
            proportion: try Item(optional: try object.optionalObject("proportion")),
            clothes: try Item(optional: try object.optionalObject("clothes")),
            hat: try Item(optional: try object.optionalObject("hat")))
    }
}

extension BCResponse.Avatar.Item {
    init?(optional object: TapeObject?) throws(FastMiss) {
        guard let object else { return nil }
        try self.init(tape: object)
    }

    init(tape object: TapeObject) throws(FastMiss) {
        self.init(
            id: try object.optionalString("id"), iconURL: try object.optionalString("icon_url"),
            url: try object.optionalString("url"), updatedAt: try object.optionalInt("updated_at"),
            assetBundleName: try object.optionalString("asset_bundle_name"),
            assetBundlePrefabName: try object.optionalString("asset_bundle_prefab_name"),
            assetBundlePrefabPostfix: try object.optionalString("asset_bundle_prefab_postfix"),
            color: try object.optionalObject("color").map { (color) throws(FastMiss) in
                BCResponse.Avatar.ItemColor(
                    value: try color.optionalInt("value"),
                    assetBundleName: try color.optionalString("asset_bundle_name"),
                    assetBundlePrefabName: try color.optionalString("asset_bundle_prefab_name"),
                    assetBundlePrefabPostfix: try color.optionalString("asset_bundle_prefab_postfix"),
                    setup: try color.optionalObject("setup").map { (setup) throws(FastMiss) in
                        BCResponse.Avatar.AssetBundle(
                            assetBundleName: try setup.optionalString("asset_bundle_name"),
                            assetBundlePrefabName: try setup.optionalString("asset_bundle_prefab_name"))
                    })
            })
    }
}
