import BCMessages
import BCReplay
import Foundation
import Testing

@Suite struct DemoScriptTests {
    static func decoded(_ item: ReplayItem) throws -> BCResponse {
        try BCMessageDecoder().decode(item.text)
    }

    static func catalog(without names: Set<String>) throws -> FixtureCatalog {
        let catalog = try Checkout.catalog()
        return FixtureCatalog(folder: catalog.folder, fixtures: catalog.fixtures.filter { !names.contains($0.name) })
    }

    @Test func theSessionEndsWithTheLiveEndingAndNothingEndsItBefore() throws {
        let demo = try DemoScript(catalog: Checkout.catalog())
        let kinds = try demo.items.map { try Self.decoded($0).t }
        #expect(kinds.last == 8)
        #expect(!kinds.dropLast().contains(8) && !kinds.contains(123))
    }

    @Test(arguments: [BCType.viewerCountChanged, .join, .comment, .gift, .follow, .topGifters, .cheerLevelUp, .memo,
                      .liveEnded])
    func theSessionHasEveryKindOfTheStory(_ kind: BCType) throws {
        let demo = try DemoScript(catalog: Checkout.catalog())
        #expect(try demo.items.contains { try Self.decoded($0).t == kind.rawValue })
    }

    @Test func viewersComeTalkAndGiveBeforeTheCheerLevelUpAndViewerCountsRecur() throws {
        let kinds = try DemoScript(catalog: Checkout.catalog()).items.map { try Self.decoded($0).t }
        #expect(kinds.first == BCType.viewerCountChanged.rawValue)
        #expect(kinds.filter { $0 == BCType.viewerCountChanged.rawValue }.count >= 2)
        #expect(kinds.filter { $0 == BCType.join.rawValue }.count >= 2)
        #expect(kinds.filter { $0 == BCType.comment.rawValue }.count >= 3)
        #expect(kinds.filter { $0 == BCType.gift.rawValue }.count >= 3)
        let cheer = try #require(kinds.firstIndex(of: BCType.cheerLevelUp.rawValue))
        #expect(kinds[..<cheer].contains(BCType.gift.rawValue) && kinds[..<cheer].contains(BCType.join.rawValue))
    }

    @Test func aGiftCarriesRankingsWhenThatFixtureExists() throws {
        let demo = try DemoScript(catalog: Checkout.catalog())
        let rankings = try demo.items.compactMap { item -> [BCResponse.GiftRanking]? in
            if case .gift(let gift) = try Self.decoded(item) { gift.rankings } else { nil }
        }
        #expect(rankings.contains { !$0.isEmpty })
        #expect(demo.items.contains { $0.fixtureName == "35-gift-with-rankings" })
    }

    @Test func everyStepIsAnExistingFixtureByteForByteThatDecodesToAKnownKind() throws {
        let demo = try DemoScript(catalog: Checkout.catalog())
        #expect(demo.steps.count >= 15)
        for item in demo.items {
            let name = try #require(item.fixtureName)
            #expect(Data(item.text.utf8) == (try Checkout.bytes(of: name)), "\(name)")
            #expect(item.location == ReplaySourceLocation(file: "Tests/Payloads/\(name).json", line: 1))
            let message = try Self.decoded(item)
            if case .unknown = message { Issue.record("\(name) is of no known kind") }
        }
    }

    @Test func theWholeSessionTakesTwoToFourSeconds() throws {
        let demo = try DemoScript(catalog: Checkout.catalog())
        #expect(demo.duration >= .seconds(2) && demo.duration <= .seconds(4))
        #expect(demo.steps.first?.delay == .zero)
        #expect(demo.steps.allSatisfy { $0.delay >= .zero && $0.delay <= .milliseconds(300) })
    }

    @Test func aKindWithoutAnyFixtureFailsSayingWhichIsNeeded() throws {
        let catalog = try Self.catalog(without: ["116-cheer-level-up-rank-up",
                                                 "116-cheer-level-up-level-only-as-strings"])
        let error = #expect(throws: ReplayError.self) { try DemoScript(catalog: catalog) }
        #expect(error == .demoFixtureMissing(t: 116, kind: "cheerLevelUp", example: "116-cheer-level-up-rank-up",
                                             folder: "Tests/Payloads"))
        #expect(error?.description.hasPrefix("the demo needs a message of t=116 (cheerLevelUp), such as "
                                             + "116-cheer-level-up-rank-up.json, and Tests/Payloads has none.") == true)
    }

    @Test func anotherFixtureOfTheKindStandsInForAMissingOne() throws {
        let demo = try DemoScript(catalog: Self.catalog(without: ["116-cheer-level-up-rank-up", "8-live-ended-bare"]))
        #expect(demo.items.contains { $0.fixtureName == "116-cheer-level-up-level-only-as-strings" })
        #expect(demo.items.last?.fixtureName == "8-live-ended-with-delay-hint")
    }

    @Test func anOptionalBeatIsLeftOutWhenItsFixtureIsMissing() throws {
        let full = try DemoScript(catalog: Checkout.catalog())
        let demo = try DemoScript(catalog: Self.catalog(without: ["35-gift-with-rankings"]))
        #expect(demo.steps.count == full.steps.count - 1)
        #expect(demo.items.last?.fixtureName == "8-live-ended-bare")
        #expect(demo.duration >= .seconds(2))
    }
}
