import BCHTTP
import BCListener
import BCMessages
import BCWebSocket
import Foundation
import Synchronization
import Testing

/// The live directory's parts without a network: page references, the answers read from the captured samples
/// (`Tests/Peers/api`, answers captured from the service) and their hostile variants, the requests it makes, the
/// bounded seen-set and the poll schedule.
@Suite struct LiveDirectoryTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Peers/api")

    private func sample(_ name: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: Self.samples.appendingPathComponent(name)))
    }

    private func json(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    @Test("page URLs and ids", arguments: [
        ("https://www.mirrativ.com/live/Xq3Zk-8s_Ab4Cd5Ef6Gh7J", LiveReference.live(id: "Xq3Zk-8s_Ab4Cd5Ef6Gh7J")),
        ("https://www.mirrativ.com/broadcast/Xq3Zk-8s_Ab4Cd5Ef6Gh7J", .live(id: "Xq3Zk-8s_Ab4Cd5Ef6Gh7J")),
        ("http://127.0.0.1:8443/live/abc/", .live(id: "abc")),
        ("Xq3Zk-8s_Ab4Cd5Ef6Gh7J", .live(id: "Xq3Zk-8s_Ab4Cd5Ef6Gh7J")),
        ("https://www.mirrativ.com/user/9001234", .user(id: "9001234")),
    ] as [(String, LiveReference)])
    func references(text: String, expected: LiveReference) {
        #expect(LiveReference(text) == expected)
    }

    @Test("not a page: nil", arguments: [
        "wss://online.example.com/", "https://www.mirrativ.com/", "https://www.mirrativ.com/live/",
        "https://www.mirrativ.com/live/a/b", "https://www.mirrativ.com/live/a%0Ab", "ab cd", "",
        "https://www.mirrativ.com/user/" + String(repeating: "9", count: 65),
    ])
    func notReferences(text: String) {
        #expect(LiveReference(text) == nil)
    }

    @Test("the captured live-info answer gives host, key and state")
    func liveInfoSample() throws {
        let info = try LiveInfo(answer: try sample("api-live-info.json"), requested: "x")
        #expect(info.liveID == "Xq3Zk-8s_Ab4Cd5Ef6Gh7J")
        #expect(info.broadcastHost == "online.mirrativ.com")
        #expect(info.key.text == "3a7c0de:Qw8Er5Ty")
        #expect(info.isLive && !info.isPrivate && info.endedAt == 0)
        #expect(info.endpoint?.absoluteString == "wss://online.mirrativ.com/")
        #expect(info.ownerName == "テスト配信者🌸")
    }

    @Test("odd types are read either way: a numeric live_id, flags as strings, broadcast_key alone, a :port")
    func liveInfoOddTypes() throws {
        let info = try LiveInfo(answer: try json("""
            {"live_id":12345,"is_live":"1","ended_at":"0","is_private":false,"broadcast_host":"127.0.0.1:8443",
             "broadcast_key":"a:b","title":7}
            """), requested: "x")
        #expect(info.liveID == "12345" && info.key.text == "a:b" && info.endpoint?.port == 8443)
        #expect(info.title == "7")
    }

    @Test("ended, private, keys missing, a hostile host, not an object: each its error", arguments: [
        (#"{"is_live":0,"ended_at":1540101000,"live_id":"L"}"#, LiveDirectoryError.liveEnded(liveID: "L")),
        (#"{"is_live":1,"ended_at":5,"broadcast_host":"h","bcsvr_key":"k"}"#, .liveEnded(liveID: "x")),
        (#"{"is_live":1,"is_private":1,"live_id":"P"}"#, .livePrivate(liveID: "P")),
        (#"{"is_live":1,"bcsvr_key":""}"#,
         .missingKeys(endpoint: "live info", keys: ["broadcast_host", "bcsvr_key (or broadcast_key)"])),
        (#"{"is_live":1,"broadcast_host":"evil.example/x?","bcsvr_key":"k"}"#,
         .unusableValue(endpoint: "live info", key: "broadcast_host", value: "evil.example/x?")),
        (#"{"is_live":1,"broadcast_host":"h:99999","bcsvr_key":"k"}"#,
         .unusableValue(endpoint: "live info", key: "broadcast_host", value: "h:99999")),
        (#"[1,2]"#, .notAnObject(endpoint: "live info")),
    ] as [(String, LiveDirectoryError)])
    func liveInfoErrors(text: String, expected: LiveDirectoryError) throws {
        #expect(throws: expected) { try LiveInfo(answer: try json(text), requested: "x") }
    }

    /// The key goes into `SUB\t<key>`: an API answering `k1\nSUB\tvictim-key` would subscribe the listener to
    /// `victim-key` too.
    @Test("a hostile bcsvr_key or broadcast_key is refused, naming the field, the value escaped", arguments: [
        ("bcsvr_key", "k1\nSUB\tvictim-key"), ("bcsvr_key", "k1\tvictim"), ("broadcast_key", "k\u{1B}[2J"),
        ("bcsvr_key", "k\u{202E}1"), ("bcsvr_key", String(repeating: "k", count: 257)),
    ])
    func liveInfoHostileKey(field: String, key: String) throws {
        var answer: [String: String] = ["broadcast_host": "h.example", field: key]
        answer["is_live"] = "1"
        let text = String(decoding: try JSONEncoder().encode(answer), as: UTF8.self)
        #expect {
            try LiveInfo(answer: try json(text), requested: "x")
        } throws: { error in
            guard case LiveDirectoryError.unusableKey(let invalid) = error else { return false }
            let said = "\(error)"
            return invalid.origin == "the live info answer's \(field)" && invalid.value == key
                && said.hasPrefix("the live info answer's \(field): ")
                && !said.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{202E}" }
        }
    }

    @Test("the captured profile: live with onlive.live_id; offline with null; odd onlive values are errors")
    func streamerStatus() throws {
        let live = try StreamerStatus(answer: try sample("api-user-profile.json"), requested: "x")
        #expect(live.userID == "9001234" && live.liveID == "Xq3Zk-8s_Ab4Cd5Ef6Gh7J")
        let offline = try StreamerStatus(answer: try json(#"{"user_id":9001234,"onlive":null}"#), requested: "x")
        #expect(offline.userID == "9001234" && offline.liveID == nil)
        #expect(throws: LiveDirectoryError.missingKeys(endpoint: "profile", keys: ["onlive"])) {
            try StreamerStatus(answer: try json(#"{"user_id":"1"}"#), requested: "1")
        }
        #expect(throws: LiveDirectoryError.unusableValue(endpoint: "profile", key: "onlive", value: "5")) {
            try StreamerStatus(answer: try json(#"{"onlive":5}"#), requested: "1")
        }
        #expect(throws: LiveDirectoryError.self) {
            try StreamerStatus(answer: try json(#"{"onlive":{"live_id":"../x"}}"#), requested: "1")
        }
    }

    @Test("the backlog in the service's shape: oldest first, typed, ids and times as strings or numbers")
    func backlog() throws {
        let backlog = try BacklogComments(answer: try sample("live-comments.json"))
        #expect(backlog.problems.isEmpty)
        #expect(backlog.comments == [
            BacklogComment(id: "900001", userID: "4530001", userName: "テスト視聴者A",
                           text: "first backlog comment\non two lines", createdAt: 1_540_124_930,
                           profileImageURL: "https://cdn.example.com/profile_image/a_m.jpeg?1540123000",
                           badgeImageURL: "https://cdn.example.com/continuous_streamer/ic_badge_S.png?v6",
                           isModerator: true, isContinuousStreamer: true),
            BacklogComment(id: "900002", userID: "4530002", userName: "テスト視聴者B",
                           text: "second backlog comment, also sent live", createdAt: 1_540_124_940,
                           profileImageURL: "https://cdn.example.com/profile_image/b_m.jpeg?1540124000"),
        ])
        let mixed = try BacklogComments(answer: try json(
            #"{"comments":[{"id":"2","comment":"x","lci":"9","t":1},7,{"comment":"no id"},{"id":1,"is_moderator":true}]}"#))
        #expect(mixed.comments.map(\.id) == ["1", "2"])
        #expect(mixed.comments.map(\.isModerator) == [true, false])
        #expect(mixed.comments.last?.unknownKeys == ["lci", "t"])
        #expect(mixed.problems == [.noID, .notAnObject])
        #expect(throws: LiveDirectoryError.missingKeys(endpoint: "live comments", keys: ["comments (an array)"])) {
            try BacklogComments(answer: try json(#"{"comments":{}}"#))
        }
    }

    @Test("the shared sample of the comments answer reads without unknown keys")
    func backlogSharedSample() throws {
        let backlog = try BacklogComments(answer: try sample("api-live-comments.json"))
        #expect(backlog.comments.map(\.id) == ["90412345601", "90412345678"])
        #expect(backlog.comments.allSatisfy { $0.unknownKeys.isEmpty })
        #expect(backlog.comments.first?.text == "初見です！\nよろしく")
    }

    /// A transport that records the requests and answers from a table.
    private final class FakeAPI: Sendable {
        let requests = Mutex<[HTTPFetchRequest]>([])
        let answers: [String: HTTPFetchResponse]

        init(_ answers: [String: HTTPFetchResponse]) { self.answers = answers }

        func directory(cookie: String? = nil) -> LiveDirectory {
            LiveDirectory(apiBase: URL(string: "https://api.example.com/base/")!, cookie: cookie,
                          tls: .trusting(caFile: "/ca.pem")) { request throws(HTTPFetchFailure) in
                self.requests.withLock { $0.append(request) }
                let key = request.url.path + "?" + (request.url.query ?? "")
                guard let answer = self.answers[key] else { throw .timedOut(request.timeout) }
                return answer
            }
        }
    }

    private static func ok(_ text: String) -> HTTPFetchResponse { HTTPFetchResponse(status: 200, body: Array(text.utf8)) }

    @Test("requests: path under the base, the id as a query, the cookie as a header, TLS and cap passed on")
    func requests() async throws {
        let live = try String(contentsOf: Self.samples.appendingPathComponent("api-live-info.json"), encoding: .utf8)
        let api = FakeAPI([
            "/base/api/user/profile?user_id=9001234": Self.ok(#"{"onlive":{"live_id":"Xq3Zk-8s_Ab4Cd5Ef6Gh7J"}}"#),
            "/base/api/live/live?live_id=Xq3Zk-8s_Ab4Cd5Ef6Gh7J": Self.ok(live),
        ])
        let info = try await api.directory(cookie: "mr_id=SECRET").resolve(.user(id: "9001234"))
        #expect(info.key.text == "3a7c0de:Qw8Er5Ty")
        let requests = api.requests.withLock { $0 }
        #expect(requests.map(\.url.absoluteString) == [
            "https://api.example.com/base/api/user/profile?user_id=9001234",
            "https://api.example.com/base/api/live/live?live_id=Xq3Zk-8s_Ab4Cd5Ef6Gh7J",
        ])
        #expect(requests.allSatisfy { $0.headers.contains(.init(name: "cookie", value: "mr_id=SECRET")) })
        #expect(requests.allSatisfy { $0.tls.caFile == "/ca.pem" && $0.maxBodySize == 1 << 20 })
    }

    @Test("answers that are not usable: each a LiveDirectoryError, the transient ones marked so", arguments: [
        (HTTPFetchResponse(status: 429, body: []), LiveDirectoryError.httpStatus(429, endpoint: "live info"), true),
        (HTTPFetchResponse(status: 503, body: []), .httpStatus(503, endpoint: "live info"), true),
        (HTTPFetchResponse(status: 401, body: []), .httpStatus(401, endpoint: "live info"), false),
        (HTTPFetchResponse(status: 200, body: Array("<html>".utf8)),
         .notJSON(endpoint: "live info", excerpt: "\"<html>\""), false),
        (HTTPFetchResponse(status: 200, body: []), .notJSON(endpoint: "live info", excerpt: "(an empty body)"), false),
        (HTTPFetchResponse(status: 200, body: Array(#"{"status":{"ok":0,"error":"login required"}}"#.utf8)),
         .refused(endpoint: "live info", message: "login required"), false),
    ] as [(HTTPFetchResponse, LiveDirectoryError, Bool)])
    func unusableAnswers(answer: HTTPFetchResponse, expected: LiveDirectoryError, transient: Bool) async throws {
        let api = FakeAPI(["/base/api/live/live?live_id=L": answer])
        do {
            _ = try await api.directory(cookie: "mr_id=SECRET").liveInfo(liveID: "L")
            Issue.record("no error")
        } catch {
            #expect(error == expected)
            #expect(error.isTransient == transient)
            #expect(!error.description.contains("SECRET"))
        }
    }

    @Test("a user offline resolves to .userOffline; a transport failure is transient")
    func offlineAndTransport() async throws {
        let api = FakeAPI(["/base/api/user/profile?user_id=1": Self.ok(#"{"onlive":null}"#)])
        await #expect(throws: LiveDirectoryError.userOffline(userID: "1")) {
            try await api.directory().resolve(.user(id: "1"))
        }
        do {
            _ = try await api.directory().resolve(.user(id: "2"))
        } catch {
            #expect(error == .transport(endpoint: "profile", .timedOut(.seconds(10))))
            #expect(error.isTransient)
        }
    }

    @Test("the seen-set keeps the newest ids only, up to its capacity")
    func recentIDsAreBounded() {
        var ids = RecentCommentIDs(capacity: 3)
        let fresh = ["a", "b", "c"].map { ids.insert($0) }
        #expect(fresh == [true, true, true])
        let again = ids.insert("b")
        #expect(!again)
        let d = ids.insert("d")  // forgets "a"
        #expect(d)
        #expect(ids.count == 3 && !ids.contains("a") && ids.contains("d"))
        let a = ids.insert("a")  // forgets "b"
        #expect(a)
        #expect(!ids.contains("b"))
    }

    @Test("poll delays: the interval ± jitter, doubled per failure up to the cap")
    func pollSchedule() {
        let schedule = PollSchedule(interval: .seconds(60), jitter: 0.2, maxBackOff: .seconds(900))
        #expect(schedule.delay(afterFailures: 0, unit: 0.5) == .seconds(60))
        #expect(schedule.delay(afterFailures: 0, unit: 0) == .seconds(48))
        #expect(schedule.delay(afterFailures: 0, unit: 1) == .seconds(72))
        #expect(schedule.delay(afterFailures: 1, unit: 0.5) == .seconds(120))
        #expect(schedule.delay(afterFailures: 3, unit: 0.5) == .seconds(480))
        #expect(schedule.delay(afterFailures: 10, unit: 0.5) == .seconds(900))
        #expect(schedule.delay(afterFailures: 1000, unit: 0.5) == .seconds(900))
    }
}
