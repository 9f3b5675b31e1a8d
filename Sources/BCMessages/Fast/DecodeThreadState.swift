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
/// And its `TapeDocument`, emptied between decodes, for the same reason.
///
/// Per thread (a pthread key), so decodes on several threads never share or lock it; released when the thread
/// ends. A decode is synchronous: what it takes from here stays on its thread until it returns. Hence no dynamic
/// exclusivity checks on its state (`@exclusivity(unchecked)`, which cost 3% of a small message): only its own
/// thread ever reaches it, and no method of it calls another while it accesses a property.
final class DecodeThreadState {
    /// The spare buffer, when there is one.
    @exclusivity(unchecked) private var spare: UnsafeMutablePointer<TapeEntry>?
    @exclusivity(unchecked) private var spareCapacity = 0

    /// The document each decode on this thread scans into (`TapeDocument.lend(scanning:)`), emptied between
    /// decodes; nil before the first, and after one that left it held elsewhere.
    @exclusivity(unchecked) private var document: TapeDocument?
    /// Whether `document` is lent to a decode now.
    @exclusivity(unchecked) private var documentLent = false

    /// The thread's document, holding `bytes` and `entries`, lent to a decode (unretained: the thread keeps it
    /// alive); nil while it is lent already.
    func lendDocument(bytes: UnsafeBufferPointer<UInt8>, entries: TapeBuffer) -> Unmanaged<TapeDocument>? {
        guard !documentLent else { return nil }
        documentLent = true
        if let document {
            document.reuse(bytes: bytes, entries: entries)
            return .passUnretained(document)
        }
        let made = TapeDocument(bytes: bytes, entries: entries)
        document = made
        return .passUnretained(made)
    }

    /// The decode of `lent` (the thread's document) is over: the document is emptied for the next one when
    /// nothing else holds it; otherwise the holder keeps it (and frees its tape when done), and the next decode
    /// makes another.
    func documentGivenBack(_ lent: Unmanaged<TapeDocument>) {
        documentLent = false
        if isKnownUniquelyReferenced(&document) {
            // Through the loan's reference, borrowed: read from `document`, it was retained for the call.
            lent._withUnsafeGuaranteedRef { $0.clear(into: self) }
        } else {
            document = nil
        }
    }

    /// For tests: the thread's document, when it has one and it is not lent.
    var peekDocument: TapeDocument? { documentLent ? nil : document }

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
