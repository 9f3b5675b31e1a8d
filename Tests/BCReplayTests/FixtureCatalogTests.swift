import BCMessages
@testable import BCReplay
import Testing

@Suite struct FixtureCatalogTests {
    @Test func everyFixtureNameSpellsItsKindAsTheCatalogReadsIt() throws {
        for fixture in try Checkout.catalog().fixtures {
            guard let t = fixture.t, let kind = fixture.kind else { continue }
            #expect(fixture.name.hasPrefix("\(t)-\(kind.kebabName)-"), "\(fixture.name) is not \(kind.kebabName)")
        }
    }

    @Test(arguments: [
        (BCType.viewerCountChanged, "viewer-count-changed"), (.liveURLShared, "live-url-shared"),
        (.appUserIDPosted, "app-user-id-posted"), (.gift, "gift"), (.collabInviteCanceledByStreamer,
        "collab-invite-canceled-by-streamer"),
    ])
    func kindsAreSpelledLikeFileNames(_ kind: BCType, _ kebab: String) {
        #expect(kind.kebabName == kebab)
    }

    @Test func everyKindOfTheCatalogueHasAFixtureAndIsSelectedByName() throws {
        let catalog = try Checkout.catalog()
        for kind in BCType.allCases {
            let selection = catalog.select(kind.name)
            #expect(selection?.fixtures.isEmpty == false, "no fixture of \(kind.name)")
            #expect(selection?.fixtures.allSatisfy { $0.kind == kind } == true)
        }
    }

    @Test func theCatalogIsInTheHarnessOrderWhateverOrderItIsGiven() {
        let names = ["not-an-object", "35-gift-b", "123-stream-ended-bare", "35-gift-a", "8-live-ended-bare"]
        let catalog = FixtureCatalog(folder: "x", fixtures: names.map { Fixture(name: $0, path: $0, json: "") })
        #expect(catalog.fixtures.map(\.name)
                == ["8-live-ended-bare", "35-gift-a", "35-gift-b", "123-stream-ended-bare", "not-an-object"])
        #expect(catalog.ts == [8, 35, 123])
        #expect(catalog.kindNames == ["liveEnded", "gift", "streamEnded"])
    }
}
