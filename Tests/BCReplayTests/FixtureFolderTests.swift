import BCFixtures
@testable import BCReplay
import Testing

/// `bcstream replay`'s fixtures without a path: the checkout's `Tests/Payloads` where the user stands in one, the
/// BCFixtures product's folder (its resource bundle) anywhere else.
@Suite struct FixtureFolderTests {
    @Test func inACheckoutItsOwnFolderAsTyped() {
        #expect(FixtureFolder.path(from: Checkout.root) == ReplayLoader.defaultFolderPath)
    }

    @Test func elsewhereTheProductsFolderWhoseWordsLoad() throws {
        let directory = try TemporaryDirectory()
        let shipped = try #require(BCFixtures.folder).path
        #expect(FixtureFolder.path(from: directory.path) == shipped)
        let loader = ReplayLoader(currentDirectory: directory.path, defaultFolder: shipped)
        let gifts = try loader.load(arguments: ["35"])
        #expect(gifts.items.compactMap(\.fixtureName) == BCFixtures.fixtures(t: 35).map(\.name))
    }

    @Test func withNeitherTheFolderLookedForHereIsNamed() throws {
        let directory = try TemporaryDirectory()
        #expect(FixtureFolder.path(from: directory.path, shipped: nil) == ReplayLoader.defaultFolderPath)
        #expect(FixtureFolder.path(from: directory.path, shipped: directory.path + "/gone")
            == ReplayLoader.defaultFolderPath)
    }
}
