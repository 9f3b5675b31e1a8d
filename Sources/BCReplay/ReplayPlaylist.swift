/// What a set of sources gives: the items to send, in order, and the problems met on the way (each left out,
/// everything else kept). A caller shows the problems and plays the items.
public struct ReplayPlaylist: Hashable, Sendable, Codable {
    /// The items, in the order of the sources, each source in its own order.
    public var items: [ReplayItem]
    /// What could not be loaded, with file and line.
    public var problems: [ReplayProblem]

    public init(items: [ReplayItem] = [], problems: [ReplayProblem] = []) {
        self.items = items
        self.problems = problems
    }

    /// Appends another playlist after this one.
    public mutating func append(_ other: ReplayPlaylist) {
        items += other.items
        problems += other.problems
    }
}
