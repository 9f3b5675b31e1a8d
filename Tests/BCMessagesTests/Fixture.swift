import BCFixtures
import BCMessages
import CustomDump
import Foundation
import Testing

/// One file of `Tests/Payloads`, as the BCFixtures product gives it to every package's tests: this package's
/// tests read the fixtures as an app's would.
typealias Fixture = BCFixture

extension BCFixture {
    /// The valid fixtures, in order of `t`, then name.
    static var all: [BCFixture] { BCFixtures.all }
    /// The invalid messages, each with the error it must produce.
    static var invalid: [BCFixture] { BCFixtures.invalid }

    /// The exact bytes of the message.
    func data() throws -> Data { Data(bytes) }
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
