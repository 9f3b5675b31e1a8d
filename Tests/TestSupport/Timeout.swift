/// Thrown when an awaited event does not come in time: the test fails with what it was waiting for instead of
/// hanging.
public struct TimedOut: Error, CustomStringConvertible {
    public let what: String
    public let after: Duration
    public var description: String { "timed out after \(after) waiting for \(what)" }

    public init(what: String, after: Duration) {
        self.what = what
        self.after = after
    }
}

/// Races `body` against a deadline; the loser is cancelled.
public func withTimeout<T: Sendable>(
    _ timeout: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw TimedOut(what: what, after: timeout)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw TimedOut(what: what, after: timeout) }
        return first
    }
}
