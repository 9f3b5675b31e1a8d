@testable import BCConsole
import BCMessages
import Foundation
import Testing

/// The NDJSON line of a decoded message, written by `CanonicalJSONWriter`, is byte for byte the one
/// `JSONEncoder` gave before it (`MessageFormatter.encodedLine`), for every fixture, with and without a key.
@Suite struct NDJSONLineTests {
    static let payloads = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Payloads")

    static let messages: [String] = ["", "Invalid"].flatMap { folder in
        let directory = payloads.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.isEmpty ? $0 : folder + "/" + $0 }
    }

    @Test(arguments: messages)
    func theWrittenLineIsTheEncodedLine(_ name: String) throws {
        let raw = try String(contentsOf: Self.payloads.appendingPathComponent(name), encoding: .utf8)
        guard let response = try? BCMessageDecoder().decode(raw) else { return }
        let formatter = MessageFormatter(format: .ndjson)
        for key in [nil, "live:123/a\"b\u{1}"] as [String?] {
            #expect(formatter.line(for: response, raw: raw, key: key) == MessageFormatter.encodedLine(for: response, key: key))
        }
    }
}
