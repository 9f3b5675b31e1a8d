#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the fast engine keeps from one decode to the next on a thread: one spare tape buffer, so that a message's
/// tape is written into the last message's memory instead of a fresh allocation (a typical tape, at about 1 KiB,
/// is past the sizes malloc serves from its per-thread cache). +4% on the captured-style corpus, measured in
/// alternating runs; it depends on nothing in the messages, so it helps live traffic as much as a benchmark.
/// And one spare `TapeDocument`, emptied, for the same reason.
///
/// Per thread (a pthread key), so decodes on several threads never share or lock it; released when the thread
/// ends. A decode is synchronous: what it takes from here stays on its thread until it returns. Hence no dynamic
/// exclusivity checks on its state (`@exclusivity(unchecked)`, which cost 3% of a small message): only its own
/// thread ever reaches it, and no method of it calls another while it accesses a property.
final class DecodeThreadState {
    /// The spare buffer, when there is one.
    @exclusivity(unchecked) private var spare: UnsafeMutablePointer<TapeEntry>?
    @exclusivity(unchecked) private var spareCapacity = 0

    /// A document to scan the next message into (`TapeDocument.recycle(_:)`), holding no tape.
    @exclusivity(unchecked) private var spareDocument: TapeDocument?

    /// Whether a document given back would be kept (there is none yet).
    var wantsSpareDocument: Bool { spareDocument == nil }

    /// The spare document, when there is one (it is then no longer the spare).
    func takeSpareDocument() -> TapeDocument? {
        guard let document = spareDocument else { return nil }
        spareDocument = nil
        return document
    }

    func keepSpareDocument(_ document: TapeDocument) { spareDocument = document }

    /// For tests: the spare document, left in place.
    var peekSpareDocument: TapeDocument? { spareDocument }

    /// The largest buffer kept as the spare (64 KiB of entries): a huge message's tape is freed, not held.
    static let largestSpare = 4096

    deinit { spare?.deallocate() }

    /// Entries the spare buffer holds (0 without one), for tests.
    var spareEntries: Int { spare == nil ? 0 : spareCapacity }

    /// The spare buffer when it holds at least `capacity` entries (it is then no longer the spare).
    func takeSpare(capacity: Int) -> (base: UnsafeMutablePointer<TapeEntry>, capacity: Int)? {
        guard let spare, spareCapacity >= capacity else { return nil }
        self.spare = nil
        return (spare, spareCapacity)
    }

    /// Keeps `base` as the spare if there is none and it is not too large, else frees it.
    func recycle(_ base: UnsafeMutablePointer<TapeEntry>, capacity: Int) {
        if spare == nil, capacity <= Self.largestSpare {
            spare = base
            spareCapacity = capacity
        } else {
            base.deallocate()
        }
    }

    /// This thread's state, made on first use; the thread holds the reference that keeps it.
    static var current: Unmanaged<DecodeThreadState> {
        if let raw = pthread_getspecific(threadKey) {
            return Unmanaged<DecodeThreadState>.fromOpaque(raw)
        }
        let state = Unmanaged.passRetained(DecodeThreadState())
        pthread_setspecific(threadKey, state.toOpaque())
        return state
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
        pthread_key_create(&key) { Unmanaged<DecodeThreadState>.fromOpaque($0).release() }
        #else
        pthread_key_create(&key) { raw in
            guard let raw else { return }
            Unmanaged<DecodeThreadState>.fromOpaque(raw).release()
        }
        #endif
        return key
    }()
}
