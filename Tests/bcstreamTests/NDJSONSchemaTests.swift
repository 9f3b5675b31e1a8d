import Foundation
import Testing

/// `bcstream types --format json-schema` describes what `decode --format ndjson` prints, as a real validator
/// (Python's `jsonschema`, Tests/Peers/ndjson_validate.py) reads it: every fixture's line, valid or not, passes,
/// and a line whose value has the wrong JSON type fails.
@Suite(.timeLimit(.minutes(1))) struct NDJSONSchemaTests {
    /// Runs the validator over `lines` against the printed schema; its report lines.
    static func validate(_ lines: [String]) throws -> [String] {
        let schema = try BCStreamProcess.run(["types", "--format", "json-schema"])
        #expect(schema.status == 0)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ndjson-schema-\(UUID()).json")
        try Data(schema.stdout.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = BCStreamProcess.repository.appendingPathComponent("Tests/Peers/ndjson_validate.py").path
        let result = try BCStreamProcess.run([script, file.path], stdin: lines.joined(separator: "\n") + "\n",
                                             executable: URL(fileURLWithPath: "/usr/bin/env"), prefix: ["python3"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.lines
    }

    /// Every line of the fixtures, the invalid ones' error lines and the unknown kinds' included.
    static func fixtureLines() throws -> [String] {
        let decoded = try BCStreamProcess.run(["decode", "--format", "ndjson", "Tests/Payloads", "Tests/Payloads/Invalid"])
        return decoded.lines
    }

    @Test func everyFixturesLineIsValid() throws {
        let lines = try Self.fixtureLines()
        #expect(lines.contains { $0.contains(#""kind":"unknown""#) }, "an unknown kind among them")
        #expect(lines.contains { $0.contains(#""error":"#) }, "an error line among them")
        #expect(try Self.validate(lines) == ["checked \(lines.count) invalid 0"])
    }

    @Test func aWrongTypeIsRejected() throws {
        let gift = try #require(try Self.fixtureLines().first { $0.hasPrefix(#"{"t":35,"kind":"gift""#) })
        let count = try #require(gift.firstRange(of: /"count":(\d+)/))
        let quoted = gift.replacingCharacters(in: count, with: gift[count].replacing(/(\d+)/) { "\"\($0.1)\"" })
        let wrongKind = gift.replacing(#""kind":"gift""#, with: #""kind":"comment""#)
        let unlisted = gift.replacing(#"{"t":35,"#, with: #"{"t":35,"extra":1,"#)
        let reports = try Self.validate([gift, quoted, wrongKind, unlisted])
        #expect(reports.count == 4)
        #expect(reports.filter { $0.hasPrefix("invalid ") }.map { $0.prefix(9) } == ["invalid 2", "invalid 3",
                                                                                      "invalid 4"])
        #expect(reports.last == "checked 4 invalid 3")
    }
}
