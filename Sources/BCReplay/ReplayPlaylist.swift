/// What a set of sources gives: the items to send, in order, and the problems met on the way (each left out,
/// everything else kept). A caller shows the problems and plays the items.
public struct ReplayPlaylist: Hashable, Sendable, Codable {
    /// The items, in the order of the sources, each source in its own order.
    public var items: [ReplayItem]
    /// What could not be loaded, with file and line.
    public var problems: [ReplayProblem]

    /// A playlist of `items` and the `problems` met loading them; empty by default.
    public init(items: [ReplayItem] = [], problems: [ReplayProblem] = []) {
        self.items = items
        self.problems = problems
    }

    /// Moves the fixtures that end the live (`ReplayItem.endsLive`) after every other item, each part keeping
    /// its order: played into a listener, which stops at the end of the live, everything else arrives first.
    public mutating func moveLiveEndsLast() {
        let ends = items.map(\.endsLive)
        guard ends.contains(true) else { return }
        items = zip(items, ends).filter { !$0.1 }.map(\.0) + zip(items, ends).filter { $0.1 }.map(\.0)
    }

    /// Appends another playlist after this one.
    public mutating func append(_ other: ReplayPlaylist) {
        items += other.items
        problems += other.problems
    }
}
