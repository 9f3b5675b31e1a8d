import BCReplay
import Testing

@Suite struct PromptCompletionTests {
    static let names = [
        "1-comment-a", "1-comment-b", "3-join-x", "35-gift-small-heart-captured-shape", "35-gift-count-8",
        "35-gift-count-int-1", "38-top-gifters-one", "8-live-ended-bare", "116-cheer-level-up-rank-up",
        "999-unknown-future-kind",
    ]
    static let prompt = PromptCompletion(catalog: FixtureCatalog(
        folder: "Fixtures",
        fixtures: names.map { Fixture(name: $0, path: "Fixtures/\($0).json", json: #"{"t":0}"#) }))

    @Test(arguments: [
        ("3", ["3", "35", "38", "3-join-x", "35-gift-count-8", "35-gift-count-int-1",
               "35-gift-small-heart-captured-shape", "38-top-gifters-one"]),
        ("t=3", ["t=3", "t=35", "t=38"]),
        ("g", ["gift"]),
        ("Gi", ["gift"]),
        ("c", ["comment", "cheerLevelUp"]),
        ("35-gift-s", ["35-gift-small-heart-captured-shape"]),
        ("  35-GIFT-C", ["35-gift-count-8", "35-gift-count-int-1"]),
        ("u", ["unknown"]),
        ("zzz", []),
    ])
    func completesTsThenKindsThenFixtureNames(_ typed: String, _ expected: [String]) {
        #expect(Self.prompt.completions(for: typed) == expected)
    }

    @Test func nothingTypedOffersEverything() {
        let all = Self.prompt.completions(for: "")
        #expect(all.prefix(7) == ["1", "3", "8", "35", "38", "116", "999"])
        #expect(all.dropFirst(7).prefix(7)
                == ["comment", "join", "liveEnded", "gift", "topGifters", "cheerLevelUp", "unknown"])
        #expect(all.count == 7 + 7 + Self.names.count)
    }

    @Test(arguments: [
        ("35-gift-c", "35-gift-count-"),
        ("Gi", "gift"),
        ("35-gift-s", "35-gift-small-heart-captured-shape"),
        ("1", "1"),
        ("zzz", "zzz"),
    ])
    func tabExtendsToWhatEveryCompletionShares(_ typed: String, _ expected: String) {
        #expect(Self.prompt.completedText(for: typed) == expected)
    }

    static let gifts = ["35-gift-count-8", "35-gift-count-int-1", "35-gift-small-heart-captured-shape"]

    @Test(arguments: [
        ("35", gifts, "t=35 (gift): 3 fixtures"),
        ("  gift ", gifts, "gift (t=35): 3 fixtures"),
        ("35-gift-small-heart", ["35-gift-small-heart-captured-shape"], "35-gift-small-heart-captured-shape"),
        ("8-live-ended-bare", ["8-live-ended-bare"], "8-live-ended-bare"),
        ("cheer-level-up", ["116-cheer-level-up-rank-up"], "cheerLevelUp (t=116): 1 fixture"),
        ("999", ["999-unknown-future-kind"], "t=999 (unknown kind): 1 fixture"),
    ])
    func aTypedLinePushesTheFixturesItNames(_ line: String, _ names: [String], _ description: String) {
        guard case .push(let selection) = Self.prompt.resolve(line) else {
            Issue.record("\(line) pushed nothing: \(Self.prompt.resolve(line))")
            return
        }
        #expect(selection.items.compactMap(\.fixtureName) == names)
        #expect(selection.description == description)
    }

    @Test(arguments: ["", "   ", "\t"])
    func aBlankLineDoesNothing(_ line: String) {
        #expect(Self.prompt.resolve(line) == .empty)
    }

    static let help = "Type a fixture name (35-gift-count-8), a t (35) or a kind (gift) to push it to every "
        + "subscriber; Tab completes."

    @Test(arguments: [
        ("gfit", "nothing matches \"gfit\". Did you mean gift? " + help),
        ("35-gift-sm", "nothing matches \"35-gift-sm\". Did you mean 35-gift-small-heart-captured-shape? " + help),
        ("heart", "nothing matches \"heart\". Did you mean 35-gift-small-heart-captured-shape? " + help),
        ("hello there", "nothing matches \"hello there\". " + help),
        ("42", "no fixture of t=42 (unknown kind) in Fixtures; the nearest ts with fixtures are 38 and 116. " + help),
        ("0", "no fixture of t=0 (unknown kind) in Fixtures; the nearest t with fixtures is 1. " + help),
        ("t=4", "no fixture of t=4 (follow) in Fixtures; the nearest ts with fixtures are 3 and 8. " + help),
        ("follow", "no fixture of follow (t=4) in Fixtures. " + help),
    ])
    func nothingMatchingSaysWhatMayHaveBeenMeantAndWhatToType(_ line: String, _ message: String) {
        #expect(Self.prompt.resolve(line) == .noMatch(message))
    }

    @Test func everyCompletionOfTheRealFixturesPushesSomethingAndEveryNameExactlyItself() throws {
        let catalog = try Checkout.catalog()
        let prompt = PromptCompletion(catalog: catalog)
        for candidate in prompt.completions(for: "") {
            guard case .push(let selection) = prompt.resolve(candidate), !selection.fixtures.isEmpty else {
                Issue.record("\(candidate) is offered but pushes nothing")
                continue
            }
        }
        for fixture in catalog.fixtures {
            #expect(prompt.resolve(fixture.name) == .push(FixtureCatalog.Selection(
                query: fixture.name, fixtures: [fixture], description: fixture.name)))
        }
    }

    /// The line editor prints completions as they are, so a fixture name with a control or bidi character is never
    /// offered (nor used to extend the typed text); its t and kind still complete and push it.
    @Test func aNameThatWouldDriveTheTerminalIsNotOffered() {
        let names = ["1-comment-plain", "1-comment-\u{1B}]0;owned\u{7}", "1-comment-\u{202E}evil"]
        let prompt = PromptCompletion(catalog: FixtureCatalog(
            folder: "Fixtures",
            fixtures: names.map { Fixture(name: $0, path: "Fixtures/\($0).json", json: #"{"t":1}"#) }))
        #expect(prompt.completions(for: "1-comment") == ["1-comment-plain"])
        #expect(prompt.completedText(for: "1-comment") == "1-comment-plain")
        #expect(prompt.completions(for: "1") == ["1", "1-comment-plain"])
        guard case .push(let selection) = prompt.resolve("1") else {
            Issue.record("t=1 pushes")
            return
        }
        #expect(selection.fixtures.count == 3)
    }
}
