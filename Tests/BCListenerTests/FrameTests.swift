import BCListener
import BCMessages
import Testing

/// What the session does with each line it receives.
@Suite struct FrameTests {
    let key = Sample.key
    let viewers = "{\"t\":23,\"online_viewer_num\":44,\"total_viewer_num\":120}"

    func message(_ json: String, mode: BCMessageDecoder.Mode = .lenient) -> BCListenerEvent {
        .message(Sample.decoded(json, mode: mode), raw: json, key: key, receivedAt: Sample.receivedAt)
    }

    @Test func aMessageIsDecoded() {
        var session = Session.open()
        #expect(session.frame(Sample.msg(viewers), at: 1) == [.emit(message(viewers))])
    }

    @Test func anUnknownKindIsAMessageInLenientMode() {
        var session = Session.open()
        #expect(session.frame(Sample.msg("{\"t\":999,\"x\":1}"), at: 1).events == [message("{\"t\":999,\"x\":1}")])
    }

    @Test func anUnknownKindIsReportedInStrictMode() {
        var session = Session.open(Sample.configuration { $0.decodingMode = .strict })
        guard case .undecodable(let error, _, _)? = session.frame(Sample.msg("{\"t\":999}"), at: 1).events.first
        else { Issue.record("expected .undecodable"); return }
        #expect(error?.reason == .unknownKind)
    }

    @Test(arguments: [
        ("{\"t\":23,\"online_viewer_num\":\"many\",\"total_viewer_num\":1}", BCDecodingError.Reason.typeMismatch),
        ("{\"online_viewer_num\":1}", .missingType),
        ("{not json", .malformedJSON),
    ])
    func anUndecodableMessageIsReportedAndTheSessionGoesOn(_ json: String, _ reason: BCDecodingError.Reason) {
        var session = Session.open()
        let line = Sample.msg(json)
        let events = session.frame("\(line)\n\(Sample.msg(viewers))", at: 1).events
        let error = #expect(throws: BCDecodingError.self) { try BCMessageDecoder().decode(json) }
        #expect(error?.reason == reason)
        #expect(events == [.undecodable(error, raw: line, reason: error?.description ?? ""), message(viewers)])
        #expect(session.on(.timerFired, at: 30).first == .send("PING"))
    }

    @Test func aMessageOfAnotherChannelIsReported() {
        var session = Session.open()
        let line = Sample.msg(viewers, key: "other:AAAAAAAA")
        #expect(session.frame(line, at: 1).events == [
            .undecodable(nil, raw: line,
                         reason: "MSG for channel \"other:AAAAAAAA\", not the subscribed \"118f91f:UdoBre1M\""),
        ])
        #expect(session.frame(Sample.msg(viewers), at: 2).events == [message(viewers)])
    }

    /// The usual line (a MSG of the subscribed key) is read by a shortcut; these look like it and are not.
    @Test func linesThatNearlyMatchTheSubscribedKeyAreReadAsBefore() {
        var session = Session.open()
        // A key that only starts like the subscribed one, or that it starts like.
        for other in [Sample.key + "x", String(Sample.key.dropLast())] {
            let line = Sample.msg(viewers, key: other)
            #expect(session.frame(line, at: 1).events == [.undecodable(nil, raw: line,
                reason: "MSG for channel \"\(other)\", not the subscribed \"\(Sample.key)\"")])
        }
        // `{` and a combining mark are one character, not `{`.
        let marked = Sample.msg("{\u{301}\"t\":23}")
        guard case .undecodable(nil, marked, let reason)? = session.frame(marked, at: 2).events.first else {
            Issue.record("expected the body to be refused")
            return
        }
        #expect(reason.hasPrefix("MSG body is not a JSON object"))
        // Two CRs at the end: the line loses one, the parser the other.
        #expect(session.frame(Sample.msg(viewers) + "\r\r", at: 3).events == [message(viewers)])
        // A subscribed key holding a TAB cannot be made (ChannelKey), so it never reaches the session.
        #expect(throws: ChannelKey.Problem.forbiddenCharacter("\t")) { try ChannelKey("a\tb") }
    }

    @Test(arguments: ["[1]", "", "\"{\"", " {\"t\":27}"])
    func aBodyThatIsNotAnObjectIsReported(_ json: String) {
        var session = Session.open()
        let line = Sample.msg(json)
        let events = session.frame(line, at: 1).events
        guard case .undecodable(nil, let raw, let reason)? = events.first, events.count == 1
        else { Issue.record("expected one .undecodable, got \(events)"); return }
        #expect(raw == line)
        #expect(reason.hasPrefix("MSG body is not a JSON object"))
    }

    @Test func anUnknownCommandIsReported() {
        var session = Session.open()
        #expect(session.frame("HELLO\tthere", at: 1).events == [
            .undecodable(nil, raw: "HELLO\tthere", reason: "unknown command \"HELLO\" in: HELLO\\tthere"),
        ])
    }

    @Test func aMessageLineWithoutItsFieldsIsReported() {
        var session = Session.open()
        #expect(session.frame("MSG\t\(key)", at: 1).events == [
            .undecodable(nil, raw: "MSG\t\(key)",
                         reason: "MSG line without both a key and a JSON field: MSG\\t118f91f:UdoBre1M"),
        ])
    }

    @Test(arguments: [("ERR\tbad key", "bad key"), ("ERR", ""), ("ERR\r\n", "")])
    func aServerErrorIsReportedInWords(_ frame: String, _ text: String) {
        var session = Session.open()
        #expect(session.frame(frame, at: 1) == [.emit(.serverError(text))])
        #expect(!session.machine.isFinished)
    }

    @Test(arguments: ["\n", "\r\n", "\n\n"])
    func everyLineOfAMultiLineFrameIsRead(_ newline: String) {
        var session = Session.open()
        let frame = ["ACK", Sample.msg(viewers), "ERR\toops", Sample.msg("{\"t\":27}"), ""].joined(separator: newline)
        #expect(session.frame(frame, at: 1).events == [message(viewers), .serverError("oops"), message("{\"t\":27}")])
    }

    @Test func aTrailingCarriageReturnIsNotPartOfTheJSON() {
        var session = Session.open()
        #expect(session.frame(Sample.msg(viewers) + "\r\n", at: 1).events == [message(viewers)])
    }

    @Test func anEmptyFrameDoesNothing() {
        var session = Session.open()
        #expect(session.frame("", at: 1) == [])
        #expect(session.frame("\r\n\n", at: 1) == [])
    }

    // MARK: - The live ends

    @Test(arguments: [
        "{\"t\":8}", "{\"t\":123}", "{\"t\":8,\"delay\":{\"uniMin\":0.5,\"uniMax\":3,\"expMultiplier\":\"1.5\"}}",
    ])
    func theEndOfTheLiveEndsTheSession(_ json: String) {
        var session = Session.open()
        let ending = Sample.decoded(json)
        #expect(session.frame(Sample.msg(json), at: 1) == [
            .emit(message(json)),
            .emit(.ended(ending)),
            .cancelTimer,
            .close(code: 1000, reason: "the live ended"),
            .finish,
        ])
        #expect(session.machine.isFinished)
        #expect(session.on(.connectionClosed(.closed(code: 1000, reason: "")), at: 2) == [])
        #expect(session.on(.timerFired, at: 30) == [])
    }

    @Test func linesAfterTheEndAreNotRead() {
        var session = Session.open()
        let events = session.frame([Sample.msg("{\"t\":8}"), Sample.msg(viewers), "ERR\tx"].joined(separator: "\n"),
                                   at: 1).events
        #expect(events == [message("{\"t\":8}"), .ended(Sample.decoded("{\"t\":8}"))])
    }

    @Test(arguments: ["{\"t\":8}", "{\"t\":123}"])
    func theSessionGoesOnWhenTold(_ json: String) {
        var session = Session.open(Sample.configuration { $0.stopOnLiveEnd = false })
        #expect(session.frame(Sample.msg(json), at: 1) == [.emit(message(json))])
        #expect(!session.machine.isFinished)
        #expect(session.on(.timerFired, at: 30).first == .send("PING"))
    }

    @Test func anUnmodelledEndInStrictModeStillEndsTheSession() {
        var session = Session.open(Sample.configuration { $0.decodingMode = .strict })
        let json = "{\"t\":8,\"reason\":\"ban\"}"
        let events = session.frame(Sample.msg(json), at: 1).events
        guard case .undecodable(let error, _, _)? = events.first else { Issue.record("\(events)"); return }
        #expect(error?.reason == .unmodelledKeys)
        #expect(events.last == .ended(Sample.decoded(json)))
        #expect(session.machine.isFinished)
    }

    @Test func aMalformedEndStillEndsTheSession() {
        var session = Session.open()
        let json = "{\"t\":8,\"delay\":\"soon\"}"
        let events = session.frame(Sample.msg(json), at: 1).events
        guard case .undecodable(let error, _, _)? = events.first else { Issue.record("\(events)"); return }
        #expect(error?.t == 8)
        #expect(events.last == .ended(nil))
        #expect(session.machine.isFinished)
    }
}
