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
        let expected = try #require(fixture.expectedError, "add Tests/Payloads/Invalid/\(fixture.name).error")
        let error = #expect(throws: BCDecodingError.self) { try BCMessageDecoder().decode(fixture.data()) }
        #expect(error?.description == expected)
    }
}

/// `BCType.wireKeys` (from the catalogue) is the list strict mode holds captures to: every key of a fixture is
/// in it (unless null, which strict mode allows), and the canonical encoding writes no other.
@Suite struct WireKeysTests {
    static func topLevelKeys(_ data: Data) throws -> Set<String> {
        guard case .object(let members) = try JSONDecoder().decode(JSONValue.self, from: data) else { return [] }
        return Set(members.filter { $0.value != .null }.keys).subtracting(["t"])
    }

    @Test(arguments: Fixture.all)
    func everyKeyOfAFixtureIsAWireKeyOfItsKind(_ fixture: Fixture) throws {
        guard let type = BCType(rawValue: fixture.t ?? 0), let keys = type.wireKeys else { return }
        let response = try BCMessageDecoder().decode(fixture.data())
        #expect(try Self.topLevelKeys(fixture.data()).subtracting(keys).sorted() == [])
        #expect(try Self.topLevelKeys(JSONEncoder().encode(response)).subtracting(keys).sorted() == [])
    }

    @Test func wireKeysCoverTheUserBlockAndTheCommentClass() {
        #expect(BCType.gift.wireKeys?.prefix(5) == ["u", "ac", "iurl", "burl", "gift_id"])
        #expect(BCType.comment.wireKeys?.contains("is_moderator") == true)
        #expect(BCType.liveUnlinked.wireKeys == [])
        #expect(BCType.emomoQuestGift.wireKeys == nil)
    }
}
