/// When each item is sent: the items paired with the pause before each, once or (with `loop`) forever.
///
/// - The first item of all goes at once.
/// - A fixture waits `interval` after whatever came before it.
/// - A frame of a recording waits what it waited when recorded (its offset minus the previous frame's),
///   scaled by `speed` (nothing at `.max`), capped by `maximumPause` when one is set. A frame recorded
///   earlier than the one before it (a clock set back) goes at once.
/// - The first frame of a recording that follows something else waits `interval`, like a fixture: sources
///   stay apart.
/// - With `loop`, the items start again after the last one, the first item waiting `interval`, for ever.
///   The sequence is lazy: it never builds more than one pass.
///
/// Pure and deterministic: the same items and options give the same steps. A server sleeps each step's
/// `delay`, then sends the step's item (`ReplayItem.frame(for:)`) to every subscriber; an item that gives
/// nothing to send still takes its time, so the pace of what follows is kept.
public struct ReplaySchedule: Sequence, Hashable, Sendable {
    /// How the items are paced.
    public struct Options: Hashable, Sendable, Codable {
        /// The pause before each fixture (and before each source after the first, and each new pass).
        public var interval: Duration
        /// How fast recordings play.
        public var speed: ReplaySpeed
        /// Whether to start again after the last item, for ever.
        public var loop: Bool
        /// The longest a recording may make the replay wait, after scaling; nil keeps every recorded pause.
        /// A recording appended to across several sessions holds pauses of hours between them.
        public var maximumPause: Duration?

        /// One second between fixtures, recordings at their recorded pace, one pass, every pause kept, unless told
        /// otherwise.
        public init(interval: Duration = .seconds(1), speed: ReplaySpeed = .recorded, loop: Bool = false,
                    maximumPause: Duration? = nil) {
            self.interval = interval
            self.speed = speed
            self.loop = loop
            self.maximumPause = maximumPause
        }
    }

    /// One item and the pause before sending it.
    public struct Step: Hashable, Sendable, Codable {
        /// How long to wait, after the previous step was sent, before sending this one.
        public var delay: Duration
        /// What to send.
        public var item: ReplayItem

        /// Send `item` once `delay` has passed since the previous step.
        public init(delay: Duration, item: ReplayItem) {
            self.delay = delay
            self.item = item
        }
    }

    /// The items, in order.
    public let items: [ReplayItem]
    /// How they are paced.
    public let options: Options

    /// The schedule of `items`, paced by `options`.
    public init(items: [ReplayItem], options: Options = Options()) {
        self.items = items
        self.options = options
    }

    /// The steps of one pass, the first one at once: the whole schedule when it does not loop.
    public var firstPass: [Step] {
        items.indices.map { Step(delay: $0 == 0 ? .zero : delay(before: $0), item: items[$0]) }
    }

    /// How long one pass takes, from sending the first item to sending the last.
    public var passDuration: Duration {
        items.indices.dropFirst().reduce(.zero) { $0 + delay(before: $1) }
    }

    /// The pause before `items[index]` within a pass, for any index but the first of the first pass.
    func delay(before index: Int) -> Duration {
        guard index > 0,
              let offset = items[index].offset,
              let previousOffset = items[index - 1].offset,
              items[index].location.file == items[index - 1].location.file
        else { return options.interval }
        let paused = options.speed.scale(Swift.max(offset - previousOffset, .zero))
        guard let maximumPause = options.maximumPause else { return paused }
        return Swift.min(paused, maximumPause)
    }

    public func makeIterator() -> Iterator {
        Iterator(schedule: self)
    }

    /// Walks the steps, pass after pass when looping.
    public struct Iterator: IteratorProtocol, Sendable {
        private let schedule: ReplaySchedule
        private var index = 0
        private var pass = 0

        init(schedule: ReplaySchedule) {
            self.schedule = schedule
        }

        public mutating func next() -> Step? {
            guard !schedule.items.isEmpty else { return nil }
            if index == schedule.items.count {
                guard schedule.options.loop else { return nil }
                index = 0
                pass += 1
            }
            defer { index += 1 }
            let delay = index == 0 && pass == 0 ? .zero : schedule.delay(before: index)
            return Step(delay: delay, item: schedule.items[index])
        }
    }
}
