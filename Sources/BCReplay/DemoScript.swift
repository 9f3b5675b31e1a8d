import BCMessages

/// The scripted session `bcstream demo` plays: a short live as a viewer sees it, built from the fixtures.
///
/// Viewers arrive (viewer counts, joins), talk (comments), follow and send gifts (one carrying event rankings
/// when that fixture exists), the top gifters change, a viewer's cheer level goes up, the streamer leaves a
/// memo, and the live ends with t=8. Pauses of 120–300 ms make the whole session about 3 seconds, long
/// enough to watch it scroll and short enough for a test. Each step's `delay` is the pause after the
/// previous one; the first goes as soon as the demo's subscriber has subscribed.
///
/// Every step is a fixture's exact bytes. A beat names the fixture that fits the story; when that file is
/// missing, another fixture of the same kind stands in (one the script has not used yet, if any), and only a
/// kind with no fixture at all fails, saying which. An optional beat plays only when its own fixture is there.
public struct DemoScript: Hashable, Sendable {
    /// One moment of the story.
    public struct Beat: Hashable, Sendable {
        /// The kind of message.
        public var kind: BCType
        /// The fixture that fits the story at this point.
        public var fixture: String
        /// The pause after the previous beat.
        public var delay: Duration
        /// Played only when `fixture` itself exists; no other fixture stands in.
        public var isOptional: Bool

        /// A beat of `kind` that plays `fixture` after `delay`; an optional one is left out when that fixture is
        /// missing.
        public init(_ kind: BCType, _ fixture: String, after delay: Duration, isOptional: Bool = false) {
            self.kind = kind
            self.fixture = fixture
            self.delay = delay
            self.isOptional = isOptional
        }
    }

    /// The story, in order.
    public static let beats: [Beat] = {
        let talk = Duration.milliseconds(120)
        let gift = Duration.milliseconds(200)
        return [
            Beat(.viewerCountChanged, "23-viewer-count-changed-44-online", after: .zero),
            Beat(.join, "3-join-wire-shape", after: talk),
            Beat(.comment, "1-comment-push-image-vip-frame", after: talk),
            Beat(.join, "3-join-string-numbers", after: talk),
            Beat(.comment, "1-comment-lci-number", after: talk),
            Beat(.viewerCountChanged, "23-viewer-count-changed-numbers-as-strings", after: talk),
            Beat(.gift, "35-gift-small-heart-captured-shape", after: gift),
            Beat(.join, "3-join-from-linked-live", after: talk),
            Beat(.comment, "1-comment-cheerleader-from-linked-live", after: talk),
            Beat(.follow, "4-follow-every-comment-key", after: talk),
            Beat(.gift, "35-gift-emoji-names", after: gift),
            Beat(.comment, "1-comment-emoji-surrogates", after: talk),
            Beat(.gift, "35-gift-count-8-coins-300", after: gift),
            Beat(.gift, "35-gift-with-rankings", after: gift, isOptional: true),
            Beat(.topGifters, "38-top-gifters-three-users", after: talk),
            Beat(.cheerLevelUp, "116-cheer-level-up-rank-up", after: .milliseconds(250)),
            Beat(.comment, "1-comment-string-numbers-unknown-yell-rank", after: talk),
            Beat(.viewerCountChanged, "23-viewer-count-changed-61-online", after: talk),
            Beat(.memo, "19-memo-every-comment-key", after: .milliseconds(250)),
            Beat(.liveEnded, "8-live-ended-bare", after: .milliseconds(300)),
        ]
    }()

    /// The session: each fixture with the pause before it.
    public let steps: [ReplaySchedule.Step]

    /// The session built from the fixtures of `catalog` (normally `Tests/Payloads`).
    public init(catalog: FixtureCatalog) throws(ReplayError) {
        var steps: [ReplaySchedule.Step] = []
        var used: Set<String> = []
        for beat in Self.beats {
            let fixture: Fixture
            if let named = catalog.fixtures.first(where: { $0.name == beat.fixture }) {
                fixture = named
            } else if beat.isOptional {
                continue
            } else {
                let sameKind = catalog.fixtures.filter { $0.kind == beat.kind }
                guard let standIn = sameKind.first(where: { !used.contains($0.name) }) ?? sameKind.first else {
                    throw .demoFixtureMissing(t: beat.kind.rawValue, kind: beat.kind.name, example: beat.fixture,
                                              folder: catalog.folder)
                }
                fixture = standIn
            }
            used.insert(fixture.name)
            steps.append(ReplaySchedule.Step(delay: beat.delay, item: fixture.item))
        }
        self.steps = steps
    }

    /// The items in order.
    public var items: [ReplayItem] { steps.map(\.item) }

    /// How long the session takes, from the first message to the last.
    public var duration: Duration {
        steps.dropFirst().reduce(.zero) { $0 + $1.delay }
    }
}
