import BCReplay
import Testing

@Suite struct ReplayScheduleTests {
    static func fixture(_ name: String) -> ReplayItem {
        .fixture(name: name, json: #"{"t":8}"#, file: "Tests/Payloads/\(name).json")
    }

    static func frame(_ milliseconds: Int64, line: Int, file: String = "session.ndjson") -> ReplayItem {
        ReplayItem(content: .recordedFrame(text: "MSG\tk\t{\"t\":1}", recordedKey: "k",
                                           offset: .milliseconds(milliseconds)),
                   location: ReplaySourceLocation(file: file, line: line))
    }

    /// A recording: frames at 0, 0.5 s and 3 s.
    static let recording = [frame(0, line: 1), frame(500, line: 2), frame(3000, line: 3)]

    static func delays(_ items: [ReplayItem], _ options: ReplaySchedule.Options) -> [Duration] {
        ReplaySchedule(items: items, options: options).map(\.delay)
    }

    @Test func fixturesAreSpacedByTheIntervalTheFirstAtOnce() {
        let items = ["a", "b", "c"].map(Self.fixture)
        let steps = Array(ReplaySchedule(items: items, options: .init(interval: .milliseconds(250))))
        #expect(steps.map(\.delay) == [.zero, .milliseconds(250), .milliseconds(250)])
        #expect(steps.map(\.item) == items)
    }

    @Test(arguments: [
        (ReplaySpeed.recorded, [Duration.zero, .milliseconds(500), .milliseconds(2500)]),
        (.times(2), [.zero, .milliseconds(250), .milliseconds(1250)]),
        (.times(0.5), [.zero, .seconds(1), .seconds(5)]),
        (.max, [.zero, .zero, .zero]),
    ])
    func aRecordingKeepsItsPaceScaledBySpeed(_ speed: ReplaySpeed, _ expected: [Duration]) {
        #expect(Self.delays(Self.recording, .init(interval: .seconds(7), speed: speed)) == expected)
    }

    @Test func sourcesStayApartByTheInterval() {
        let other = [Self.frame(0, line: 1, file: "other.ndjson"), Self.frame(100, line: 2, file: "other.ndjson")]
        let items = [Self.fixture("a")] + Self.recording + other + [Self.fixture("b")]
        #expect(Self.delays(items, .init(interval: .seconds(1), speed: .times(2))) == [
            .zero, .seconds(1), .milliseconds(250), .milliseconds(1250), .seconds(1), .milliseconds(50), .seconds(1),
        ])
        #expect(ReplaySchedule(items: items, options: .init(interval: .seconds(1), speed: .times(2))).passDuration
                == .milliseconds(4550))
    }

    @Test func aFrameRecordedBeforeThePreviousOneGoesAtOnce() {
        let items = [Self.frame(0, line: 1), Self.frame(2000, line: 2), Self.frame(1500, line: 3),
                     Self.frame(1600, line: 4)]
        #expect(Self.delays(items, .init()) == [.zero, .seconds(2), .zero, .milliseconds(100)])
    }

    @Test func aMaximumPauseCapsLongRecordedPausesAfterScaling() {
        let items = [Self.frame(0, line: 1), Self.frame(3_600_000, line: 2), Self.frame(3_600_400, line: 3)]
        #expect(Self.delays(items, .init(speed: .times(2), maximumPause: .seconds(5)))
                == [.zero, .seconds(5), .milliseconds(200)])
    }

    @Test func withoutLoopTheScheduleIsOnePass() {
        let schedule = ReplaySchedule(items: Self.recording, options: .init(interval: .seconds(1)))
        #expect(Array(schedule) == schedule.firstPass)
        #expect(Array(schedule) == Array(schedule), "the same steps every time")
        #expect(schedule.passDuration == .seconds(3))
    }

    @Test func aLoopRepeatsLazilyForEverWithTheIntervalBetweenPasses() {
        let items = ["a", "b"].map(Self.fixture) + Self.recording
        let schedule = ReplaySchedule(items: items, options: .init(interval: .seconds(1), speed: .max, loop: true))
        let steps = Array(schedule.prefix(12))
        #expect(steps.map(\.item) == items + items + items.prefix(2))
        #expect(steps.map(\.delay) == [
            .zero, .seconds(1), .seconds(1), .zero, .zero,
            .seconds(1), .seconds(1), .seconds(1), .zero, .zero,
            .seconds(1), .seconds(1),
        ])
        // Far into an endless schedule, without building it.
        var iterator = schedule.makeIterator()
        for _ in 0..<100_000 { _ = iterator.next() }
        #expect(iterator.next()?.item == items[0])
    }

    @Test func nothingToPlayIsAnEmptyScheduleEvenWhenLooping() {
        #expect(Array(ReplaySchedule(items: [], options: .init(loop: true))).isEmpty)
    }

    @Test(arguments: [
        ("max", ReplaySpeed.max), ("MAX", .max), ("1", .recorded), ("2", .times(2)), ("0.5", .times(0.5)),
        ("2x", .times(2)), (" 10 ", .times(10)),
    ])
    func speedReadsAFactorOrMax(_ text: String, _ speed: ReplaySpeed) {
        #expect(ReplaySpeed(text) == speed)
    }

    @Test(arguments: ["0", "-1", "fast", "", "nan", "inf", "x"])
    func speedRefusesAnythingElse(_ text: String) {
        #expect(ReplaySpeed(text) == nil)
    }

    @Test func speedReadsBackAsTyped() {
        #expect(ReplaySpeed.times(2).description == "2x")
        #expect(ReplaySpeed.times(0.5).description == "0.5x")
        #expect(ReplaySpeed.max.description == "max")
    }
}
