import BCMessages
import Foundation
import Testing

@Suite struct DecodeCommandTests {
    private func object(_ line: String) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(value as? [String: Any], "not a JSON object: \(line)")
    }

    @Test func ndjsonGivesOneLinePerMessageAndGoesOnAfterAnError() throws {
        let gift = #"{"t":35,"u":"100000001","ac":"Taro","gift_id":"2","gift_title":"Heart","coins":"1","count":"8"}"#
        let broken = #"{"t":35,"u":"100000001","ac":"Taro","gift_id":"2","gift_title":"Heart","coins":"1","count":"eight"}"#
        let unknown = #"{"t":999,"new_key":12345678901234567890123}"#
        let input = [gift, broken, "MSG\t118f91f:UdoBre1M\t\(gift)", "ACK", unknown].joined(separator: "\n") + "\n"

        let result = try BCStreamProcess.run(["decode", "--format", "ndjson"], stdin: input)

        #expect(result.status == 1, "a failed message makes the exit status non-zero")
        #expect(result.lines.count == 4, "four messages, the ACK skipped: \(result.stdout)")
        let first = try object(result.lines[0])
        #expect(first["t"] as? Int == 35)
        #expect(first["kind"] as? String == "gift")
        let canonical = try JSONSerialization.data(withJSONObject: try #require(first["message"]))
        #expect(try BCMessageDecoder().decode(canonical) == BCMessageDecoder().decode(gift))

        let failure = try object(result.lines[1])
        #expect(failure["kind"] as? String == "gift")
        #expect((failure["error"] as? String)?.contains(#"at count: expected an integer or a numeric string, found "eight""#) == true)
        #expect(failure["raw"] as? String == broken, "the raw text is kept whole")

        #expect(try object(result.lines[2])["key"] as? String == "118f91f:UdoBre1M")

        let kept = try object(result.lines[3])
        #expect(kept["kind"] as? String == "unknown")
        #expect(kept["t"] as? Int == 999)
        #expect(result.lines[3].contains("12345678901234567890123"), "every digit of the unknown kind's number kept")

        #expect(result.stderr.contains("4 messages: 2 gift; 1 unknown (t=999 ×1); 1 error; 1 line skipped"))
    }

    @Test func textIsOneReadableLinePerMessage() throws {
        let input = #"{"t":23,"online_viewer_num":44,"total_viewer_num":120}"# + "\n" + #"{"t":8}"# + "\n"
        let result = try BCStreamProcess.run(["decode"], stdin: input)
        #expect(result.status == 0)
        #expect(result.lines.count == 2)
        #expect(result.lines[0].hasPrefix("t=23"))
        #expect(result.lines[0].hasSuffix("44 watching, 120 in total"))
        #expect(result.lines[1].hasSuffix("the live ended"))
    }

    @Test func filesWithCRLFLineBreaksDecodeLineByLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("crlf-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: path) }
        try Data("{\"t\":8}\r\nMSG\tk:1\t{\"t\":23,\"online_viewer_num\":1,\"total_viewer_num\":2}\r\n".utf8).write(to: path)
        let result = try BCStreamProcess.run(["decode", "--format", "ndjson", path.path])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(try result.lines.map { try object($0)["t"] as? Int } == [8, 23])
    }

    @Test func fixtureFilesAreOneMessageEach() throws {
        let files = ["Tests/Payloads/1-comment-lci-string.json", "Tests/Payloads/8-live-ended-bare.json"]
        let result = try BCStreamProcess.run(["decode", "--format", "ndjson"] + files)
        #expect(result.status == 0)
        #expect(try result.lines.map { try object($0)["t"] as? Int } == [1, 8])
    }

    @Test func strictReportsUnknownKindsAndKeys() throws {
        let input = #"{"t":8,"surprise":1}"# + "\n" + #"{"t":999}"# + "\n"
        let result = try BCStreamProcess.run(["decode", "--strict", "--format", "ndjson"], stdin: input)
        #expect(result.status == 1)
        let errors = try result.lines.map { try object($0)["error"] as? String }
        #expect(errors[0]?.contains("\"surprise\"") == true)
        #expect(errors[1]?.contains("t=999") == true)
    }

    @Test func typesListsEveryKind() throws {
        let result = try BCStreamProcess.run(["types", "--format", "ndjson"])
        #expect(result.status == 0)
        let listed = try result.lines.map { try object($0) }
        #expect(listed.compactMap { $0["t"] as? Int } == BCType.allCases.map(\.rawValue))
        #expect(listed.compactMap { $0["kind"] as? String } == BCType.allCases.map(\.name))
    }
}
