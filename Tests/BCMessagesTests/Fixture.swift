import BCMessages
import CustomDump
import Foundation
import Testing

/// One file of `Tests/Payloads`: a message exactly as the wire sent it.
struct Fixture: Sendable, CustomTestStringConvertible {
    /// The file name without `.json`: `35-gift-small-heart`.
    let name: String
    let url: URL

    var testDescription: String { name }

    /// The exact bytes of the message.
    func data() throws -> Data { try Data(contentsOf: url) }

    /// The `t` the file name starts with.
    var t: Int? { name.split(separator: "-").first.flatMap { Int($0) } }

    static let payloadsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Payloads")

    /// The valid fixtures: every `*.json` directly under `Tests/Payloads`, in order of `t`, then name.
    static let all: [Fixture] = load(from: payloadsDirectory)

    /// The invalid messages, under `Tests/Payloads/Invalid`, each beside the `.error` it must produce.
    static let invalid: [Fixture] = load(from: payloadsDirectory.appendingPathComponent("Invalid"))

    static func load(from directory: URL) -> [Fixture] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }
            .map { Fixture(name: String($0.dropLast(5)), url: directory.appendingPathComponent($0)) }
            .sorted { ($0.t ?? .max, $0.name) < ($1.t ?? .max, $1.name) }
    }
}

/// A readable rendering of a decoded value, compared against a file checked in beside the tests, so that a
/// change in decoding shows up as a diff a person can review.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    /// Set `BCSTREAM_RECORD_GOLDENS=1` to write the goldens anew (then review `git diff`).
    static let recording = ProcessInfo.processInfo.environment["BCSTREAM_RECORD_GOLDENS"] == "1"

    static func assertMatches(_ value: some Any, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var rendered = ""
        customDump(value, to: &rendered)
        rendered += "\n"
        let url = directory.appendingPathComponent(name + ".txt")
        if recording {
            try rendered.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("No golden at \(url.path). Run with BCSTREAM_RECORD_GOLDENS=1 and review it:\n\(rendered)",
                         sourceLocation: sourceLocation)
            return
        }
        if expected != rendered {
            Issue.record("Decoding of \(name) changed:\n\(diff(expected, rendered) ?? rendered)", sourceLocation: sourceLocation)
        }
    }
}

extension Forcible: CustomDumpRepresentable {
    public var customDumpValue: Any { wrappedValue }
}
