import BCFixtures
import BCMessages
import Foundation
import Testing

/// The fixtures product gives exactly the files of `Tests/Payloads`, from its resource bundle, read here
/// independently of it.
@Suite struct BCFixturesTests {
    static let payloads = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Payloads")

    /// The `*.json` names directly inside a folder, without `.json`.
    static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
            .map { String($0.dropLast(5)) }
    }

    @Test func theFixturesComeFromTheResourceBundleNotTheCheckout() throws {
        let folder = try #require(BCFixtures.folder)
        #expect(folder.path.contains("BCStream_BCFixtures."), "read from \(folder.path)")
        #expect(!folder.path.hasPrefix(Self.payloads.path))
    }

    @Test func allIsEveryValidFileExactlyInOrderOfTThenName() throws {
        let names = try Self.names(in: Self.payloads)
        #expect(BCFixtures.all.map(\.name).sorted() == names.sorted())
        for fixture in BCFixtures.all {
            let file = try Data(contentsOf: Self.payloads.appendingPathComponent(fixture.name + ".json"))
            #expect(fixture.bytes == [UInt8](file), "\(fixture.name)")
        }
        let order = BCFixtures.all.map { ($0.t ?? .max, $0.name) }
        #expect(zip(order, order.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func theInvalidOnesAreApartEachWithItsError() throws {
        let invalid = Self.payloads.appendingPathComponent("Invalid")
        #expect(BCFixtures.invalid.map(\.name).sorted() == (try Self.names(in: invalid)).sorted())
        #expect(Set(BCFixtures.invalid.map(\.name)).isDisjoint(with: BCFixtures.all.map(\.name)))
        for fixture in BCFixtures.invalid {
            let error = try String(contentsOf: invalid.appendingPathComponent(fixture.name + ".error"), encoding: .utf8)
            #expect(fixture.expectedError == error.trimmingCharacters(in: .newlines))
        }
        #expect(BCFixtures.all.allSatisfy { $0.expectedError == nil })
    }

    @Test func tAndKindComeFromTheName() {
        let gift = BCFixture(name: "35-gift-x", bytes: [])
        #expect(gift.t == 35 && gift.kind == .gift)
        let unknown = BCFixture(name: "9999-new-kind", bytes: [])
        #expect(unknown.t == 9999 && unknown.kind == nil)
        let none = BCFixture(name: "not-an-object", bytes: [])
        #expect(none.t == nil && none.kind == nil)
        #expect(gift.description == "35-gift-x")
    }

    @Test func lookUpsByNameTAndKind() throws {
        let name = try #require(BCFixtures.all.first { $0.kind == .gift }).name
        #expect(BCFixtures.fixture(named: name)?.name == name)
        #expect(BCFixtures.fixture(named: name + ".json")?.name == name)
        #expect(BCFixtures.fixture(named: "no-such-fixture") == nil)
        let gifts = try Self.names(in: Self.payloads).filter { $0.hasPrefix("35-") }.sorted()
        #expect(BCFixtures.fixtures(t: 35).map(\.name) == gifts)
        #expect(BCFixtures.fixtures(kind: .gift).map(\.name) == gifts)
        #expect(BCFixtures.fixtures(t: -1).isEmpty)
    }

    /// As an app's test would use them: one case per fixture, named after it.
    @Test(arguments: BCFixtures.all)
    func everyFixtureDecodesToItsKind(_ fixture: BCFixture) throws {
        let response = try BCMessageDecoder().decode(Data(fixture.bytes))
        #expect(response.t == fixture.t)
        #expect(response.type == fixture.kind)
    }
}
