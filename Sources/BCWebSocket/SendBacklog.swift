import Synchronization

/// Bytes queued for each client of a server and not yet handed to the socket, counted where they are queued
/// (the caller's thread, so the count is exact the moment `send` returns) and where they are written (the
/// service thread). It decides when a client's queue is too full to grow, and when it has drained.
final class SendBacklog: Sendable {
    private struct Entry {
        var bytes = 0
        /// Went past the high-water mark and has not drained below the low one since.
        var full = false
    }

    let highWater: Int
    let lowWater: Int
    private let entries = Mutex([UInt64: Entry]())

    init(highWater: Int, lowWater: Int) {
        self.highWater = max(1, highWater)
        self.lowWater = min(max(0, lowWater), self.highWater)
    }

    /// `bytes` were queued for `id`; returns the client's queued bytes now.
    @discardableResult
    func add(_ bytes: Int, for id: UInt64) -> Int {
        entries.withLock { entries in
            var entry = entries[id, default: Entry()]
            entry.bytes += bytes
            if entry.bytes > highWater { entry.full = true }
            entries[id] = entry
            return entry.bytes
        }
    }

    /// `bytes` left `id`'s queue (written, or dropped); true when that drained a full queue below the low mark.
    func remove(_ bytes: Int, for id: UInt64) -> Bool {
        entries.withLock { entries in
            guard var entry = entries[id] else { return false }
            entry.bytes = max(0, entry.bytes - bytes)
            let drained = entry.full && entry.bytes <= lowWater
            if drained { entry.full = false }
            entries[id] = entry
            return drained
        }
    }

    /// The bytes queued for `id`.
    func queued(for id: UInt64) -> Int {
        entries.withLock { $0[id]?.bytes ?? 0 }
    }

    /// `id` is gone.
    func forget(_ id: UInt64) {
        _ = entries.withLock { $0.removeValue(forKey: id) }
    }
}
