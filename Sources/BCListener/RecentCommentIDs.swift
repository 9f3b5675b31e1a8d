/// The comment ids (`lci`) seen lately, at most `capacity` of them: the oldest is forgotten when a new one
/// comes. Drops a live comment already shown from the backlog (or received twice across a reconnect) in
/// bounded memory, whatever the length of the live.
public struct RecentCommentIDs: Sendable {
    /// How many ids are remembered at most; at least 1.
    public let capacity: Int
    private var members: Set<String> = []
    private var order: [String] = []
    /// Where the next id goes in `order` once it is full (a ring).
    private var next = 0

    /// An empty set that remembers the last `capacity` ids (at least 1).
    public init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    /// How many ids are remembered now, at most `capacity`.
    public var count: Int { members.count }

    /// Whether `id` is among the ids remembered.
    public func contains(_ id: String) -> Bool { members.contains(id) }

    /// Records `id`; false when it was already there (a duplicate).
    @discardableResult
    public mutating func insert(_ id: String) -> Bool {
        guard !members.contains(id) else { return false }
        if order.count < capacity {
            order.append(id)
        } else {
            members.remove(order[next])
            order[next] = id
            next = (next + 1) % capacity
        }
        members.insert(id)
        return true
    }
}
