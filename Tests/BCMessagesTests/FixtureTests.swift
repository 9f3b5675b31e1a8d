import BCMessages
import Foundation
import Testing

/// Every fixture of `Tests/Payloads` decodes to its reviewed golden, survives an encode/decode round trip, and
/// passes strict mode; every invalid message fails with the error beside it.
@Suite struct FixtureTests {
    @Test func thereAreFixtures() {
        #expect(Fixture.all.count >= BCType.allCases.count)
        #expect(!Fixture.invalid.isEmpty)
    }

    @Test(arguments: Fixture.all)
    func decodesToItsGolden(_ fixture: Fixture) throws {
        let response = try BCMessageDecoder().decode(fixture.data())
        try Golden.assertMatches(response, named: fixture.name)
    }

    @Test(arguments: Fixture.all)
    func fileNameStartsWithItsTypeAndKind(_ fixture: Fixture) throws {
        let response = try BCMessageDecoder().decode(fixture.data())
        // liveURLShared → live-url-shared: a run of capitals is one word.
        let kebab = response.kind.replacing(/([a-z])([A-Z])|([A-Z])([A-Z][a-z])/) { match in
            "\(match.1 ?? match.3 ?? "")-\(match.2 ?? match.4 ?? "")"
        }.lowercased()
        #expect(fixture.name.hasPrefix("\(response.t)-\(kebab)-"),
                "name it \(response.t)-\(kebab)-<what it shows>.json")
    }

    @Test(arguments: Fixture.all)
    func roundTripsThroughEncoding(_ fixture: Fixture) throws {
        let decoder = BCMessageDecoder()
        let response = try decoder.decode(fixture.data())
        let encoded = try JSONEncoder().encode(response)
        #expect(try decoder.decode(encoded) == response)
        // The canonical form is itself strict-clean: encoding writes only wire keys.
        if case .unknown = response { return }
        #expect(throws: Never.self) { try BCMessageDecoder(mode: .strict).decode(encoded) }
    }

    @Test(arguments: Fixture.all)
    func passesStrictModeUnlessItsKindIsUnknown(_ fixture: Fixture) throws {
        let strict = BCMessageDecoder(mode: .strict)
        if BCType(rawValue: fixture.t ?? 0) == nil {
            let error = #expect(throws: BCDecodingError.self) { try strict.decode(fixture.data()) }
            #expect(error?.reason == .unknownKind)
        } else {
            #expect(throws: Never.self) { try strict.decode(fixture.data()) }
        }
    }

    @Test(arguments: BCType.allCases)
    func everyKindHasAFixture(_ type: BCType) {
        #expect(Fixture.all.contains { $0.t == type.rawValue }, "add Tests/Payloads/\(type.rawValue)-…json")
    }

    @Test(arguments: Fixture.invalid)
    func invalidMessageFailsWithItsError(_ fixture: Fixture) throws {
        let errorFile = fixture.url.deletingPathExtension().appendingPathExtension("error")
        let expected = try String(contentsOf: errorFile, encoding: .utf8).trimmingCharacters(in: .newlines)
        let error = #expect(throws: BCDecodingError.self) { try BCMessageDecoder().decode(fixture.data()) }
        #expect(error?.description == expected)
    }
}
