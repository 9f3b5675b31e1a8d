@testable import BCFleet
import BCListener
import BCMessages
import Foundation
import Testing

/// What a take-over refills (issue 30 item 4): a request may carry its live's id, checked; each comment is stored
/// under its comment id so that it is stored once however it came; only recent comments are refilled.
@Suite(.timeLimit(.minutes(1))) struct TakeOverRefillTests {
    @Test func aRequestCarriesItsLiveIDWhichIsChecked() throws {
        let key = try ChannelKey("118f91f:UdoBre1M")
        let request = FollowRequest(url: "wss://online.example.com/", key: key, live: "Xq3Zk-8s_Ab4")
        #expect(String(decoding: request.json, as: UTF8.self)
            == #"{"key":"118f91f:UdoBre1M","live":"Xq3Zk-8s_Ab4","url":"wss://online.example.com/"}"#)
        #expect((try? FollowRequest.parse(request.json, subject: "bcstream.follow").get()) == request)
        #expect(FollowRequest(url: "wss://online.example.com/", key: key).live == nil)
    }

    /// The id goes into the API's URL: nothing that could change the URL or a header passes.
    @Test(arguments: ["", "a/../b", "a?x=1", "a&b", "a b", "a\r\nX: y", "a%2F", String(repeating: "a", count: 65), "ライブ"])
    func aLiveIDThatCouldChangeTheURLIsRefused(live: String) throws {
        struct Wire: Encodable { var url: String; var key: String; var live: String }
        let data = try JSONEncoder().encode(Wire(url: "wss://online.example.com/", key: "k:1", live: live))
        guard case .failure(let problem) = FollowRequest.parse(Array(data), subject: "bcstream.follow") else {
            Issue.record("accepted \(live.debugDescription)")
            return
        }
        #expect(problem.description.contains("is not a live id"))
        #expect(!problem.description.unicodeScalars.contains { ChannelKeyTestsRule.isUnsafe($0) })
    }

    /// `comment-<key>-<id>`, or nil for an id from the service that cannot be a header's.
    @Test func aCommentsMessageIDIsItsCommentIDWhenThatIsPlain() {
        #expect(FleetMessageMaker.commentID(key: "k:1", comment: "90412345678") == "comment-k:1-90412345678")
        for hostile in ["", "1\r\nNats-Msg-Id: x", "1 2", String(repeating: "9", count: 65)] {
            #expect(FleetMessageMaker.commentID(key: "k:1", comment: hostile) == nil, "\(hostile.debugDescription)")
        }
    }

    private static func comment(_ id: String, createdAt: Int?) -> BacklogComment {
        BacklogComment(id: id, userID: "1", userName: "a", text: "t", createdAt: createdAt)
    }

    /// Only what was created within the window: older comments may have been stored before JetStream's duplicate
    /// window, and would be stored twice; one without a time cannot be placed.
    @Test(arguments: [(0, true), (99, true), (100, true), (101, false), (3600, false)])
    func onlyCommentsCreatedWithinTheWindowAreRefilled(age: Int, refilled: Bool) {
        let now = Date(timeIntervalSince1970: 1_764_300_000)
        let comments = [Self.comment("1", createdAt: 1_764_300_000 - age), Self.comment("2", createdAt: nil)]
        let chosen = BacklogRefill.comments(comments, now: now, window: .seconds(100))
        #expect(chosen.map(\.id) == (refilled ? ["1"] : []))
    }

    @Test func theWindowKeepsTheBacklogsOrder() {
        let now = Date(timeIntervalSince1970: 1_764_300_000)
        let comments = (0..<5).map { Self.comment("\($0)", createdAt: 1_764_300_000 - 200 + $0 * 40) }
        #expect(BacklogRefill.comments(comments, now: now).map(\.id) == ["3", "4"])
    }
}
