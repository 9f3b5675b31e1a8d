import BCAudit
import BCMessages
import Foundation
import Testing

/// The comments API's answer (`listen --backlog`'s source) audited against `BacklogComment`.
@Suite struct BacklogAuditTests {
    static let known = #"{"comments":[{"id":"2","user_id":"1","user_name":"Taro","comment":"hi","created_at":"1764301212","profile_image_url":"","badge_image_url":"","is_moderator":0,"is_continuous_streamer":1}],"status":{"ok":1}}"#
    static let drifted = #"{"comments":[{"id":"3","user_id":"1","user_name":"Taro","comment":"hi","is_vip":1,"frame":{"color":"red"}},{"id":4,"is_vip":"0"},7],"status":{"ok":1}}"#

    @Test("an answer whose comments have keys BacklogComment lacks: new keys with types, sample and first line")
    func findsNewBacklogKeys() throws {
        let report = AuditTests.audit([Self.known, Self.drifted])
        let backlog = try #require(report.backlog)
        #expect(backlog.answers == 2 && backlog.comments == 3)
        #expect(backlog.newKeys.map(\.path) == ["frame", "is_vip"])
        let vip = try #require(backlog.newKeys.last)
        #expect(vip.count == 2 && vip.types == ["number": 1, "string": 1] && vip.sample == "1")
        #expect(vip.firstSeen == AuditLocation(source: "live", line: 2))
        #expect(report.findings.newKeys == 2)
        #expect(report.badLines == 1, "the member that is not an object")
        let text = report.text()
        #expect(text.contains("Backlog comments (the comments API): 3 comments in 2 answers"))
        #expect(text.contains("is_vip") && text.contains("BacklogComment does not know them"))
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test("the service's answer as the samples show it has no finding; a listen NDJSON backlog line is counted")
    func aKnownAnswerIsClean() throws {
        let ndjson = #"{"kind":"backlogComment","key":"k:1","backlog":true,"message":{"id":"2","text":"hi"}}"#
        let report = AuditTests.audit([Self.known, ndjson])
        #expect(report.backlog?.newKeys.isEmpty == true && report.backlog?.reencoded == 1)
        #expect(report.findings.total == 0 && report.badLines == 0)
        // The model reads every key it declares: what the audit calls known, BacklogComment decodes.
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(Self.known.utf8))
        let comment = try BacklogComment(json: try #require(value["comments"].flatMap {
            if case .array(let members) = $0 { members.first } else { nil }
        }))
        #expect(comment.unknownKeys.isEmpty && comment.isContinuousStreamer && comment.createdAt == 1_764_301_212)
    }

    @Test("against a baseline that had the backlog key, it is not new")
    func baseline() throws {
        let earlier = AuditTests.audit([Self.drifted])
        let now = AuditTests.audit([Self.drifted]).comparing(with: earlier, named: "before.json")
        #expect(now.backlog?.newKeys.isEmpty == true && now.findings.newKeys == 0)
        let data = try JSONEncoder().encode(earlier)
        #expect(try JSONDecoder().decode(AuditReport.self, from: data) == earlier)
    }
}
