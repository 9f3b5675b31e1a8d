#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A scanned message: its bytes, its tape, and the member tables built for the objects a decode looks into.
///
/// Holds a message only for the duration of one decode, inside the `withUnsafeBytes` of the message: `bytes`
/// points into the caller's buffer. Between decodes the thread keeps it emptied, with no bytes, tape or tables,
/// for the next one (`lend(scanning:)`). Not Sendable, and never needs to be: only its thread ever reaches it.
///
/// Its mutable state opts out of dynamic exclusivity checks (`@exclusivity(unchecked)`), which otherwise cost
/// a tenth of the decode: one decode runs on one thread, and no method hands out an `inout` to a property
/// while another method could reach it (every access is a plain read, append or element store).
///
/// What it reads is in the extensions beside it, one concern each (`TapeDocument+MemberTables.swift`,
/// `+KeyHashing`, `+Strings`, `+Numbers`, `+ForcibleRules`, `+JSONValue`, `+DecodingErrors`). The storage they use is
/// declared here, internal: an extension cannot declare stored properties.
final class TapeDocument {
    @exclusivity(unchecked) private(set) var bytes: UnsafeBufferPointer<UInt8>
    @exclusivity(unchecked) private(set) var entries: TapeBuffer
    /// Whether `entries` is this document's to give back: false once `clear(into:)` has given it back.
    @exclusivity(unchecked) private var ownsEntries = true
    /// Member tables, one run per object looked into: each member's key hash and the tape index of its key.
    @exclusivity(unchecked) var members: ContiguousArray<Member> = []
    /// Hash indexes for the member tables of large objects (see `lookupThreshold`).
    @exclusivity(unchecked) var buckets: ContiguousArray<Int32> = []
    /// For the tables whose keys must be compared as Swift Strings, by `MemberTable.start`: each distinct key
    /// (the first of equal ones) and its tape index. Built on the first such lookup.
    @exclusivity(unchecked) var stringIndexes: [Int: [String: Int32]] = [:]
    /// Reused for unescaping strings.
    @exclusivity(unchecked) var scratch: [UInt8] = []
    /// Work done beyond the scan, in comparable units (members hashed, every probe of a table and comparison of
    /// keys, bytes unescaped, steps of a coding-path walk), so tests can check that decoding stays linear without
    /// timing anything.
    @exclusivity(unchecked) var work = 0
    /// When not nil, every key looked up, as "object index:key" (tests compare what each path reads).
    @exclusivity(unchecked) var lookedUp: Set<String>?
    /// The member tables built, in order: an object's `TapeEntry.c` is its table's position plus one.
    @exclusivity(unchecked) var tables: [MemberTable] = []

    /// Takes ownership of `entries`.
    init(bytes: UnsafeBufferPointer<UInt8>, entries: TapeBuffer) {
        self.bytes = bytes
        self.entries = entries
        // Nothing is reserved here: direct extraction (every valid message of a known kind) never builds a
        // member table, and two reservations were two mallocs and two frees per message.
    }

    deinit { if ownsEntries { entries.recycle() } }

    /// Scans `bytes` into a new document; nil when they are not a JSON document. (A decode scans into its thread's
    /// own document instead: `lend(scanning:)`.)
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> TapeDocument? {
        DecodeThreadState.current._withUnsafeGuaranteedRef { state -> TapeDocument? in
            guard let entries = scanTape(bytes, state: state) else { return nil }
            return TapeDocument(bytes: bytes, entries: entries)
        }
    }

    /// The tape of `bytes`, written into the thread's spare buffer when it is large enough; nil when they are not
    /// a JSON document.
    private static func scanTape(_ bytes: UnsafeBufferPointer<UInt8>, state: DecodeThreadState) -> TapeBuffer? {
        guard var scanner = TapeScanner(bytes, state: state) else { return nil }
        do {
            try scanner.scan()
        } catch {
            state.recycle(scanner.entries.base, capacity: scanner.entries.capacity)
            return nil
        }
        return scanner.entries
    }

    /// Scans `bytes` for one decode, into the thread's own document, lent rather than retained: the next message
    /// on this thread then costs no allocation, initialisation or release of a document (about 35 ns, a seventh
    /// of a small message's decode), and handing it over costs no retain or release either (each an atomic
    /// operation: a viewer count's decode spent a fifth of its time on the document's). Nil when the bytes are
    /// not a JSON document. A decode inside a decode on the same thread (strict mode's check) gets a new document,
    /// the thread's being lent already. `LentTapeDocument.giveBack()` ends the loan.
    static func lend(scanning bytes: UnsafeBufferPointer<UInt8>) -> LentTapeDocument? {
        DecodeThreadState.current._withUnsafeGuaranteedRef { state -> LentTapeDocument? in
            guard let entries = scanTape(bytes, state: state) else { return nil }
            if let document = state.lendDocument(bytes: bytes, entries: entries) {
                return LentTapeDocument(document: document, thread: .passUnretained(state))
            }
            return LentTapeDocument(document: .passRetained(TapeDocument(bytes: bytes, entries: entries)), thread: nil)
        }
    }

    /// The thread's document takes the next message's bytes and tape (it was emptied after the last one).
    func reuse(bytes: UnsafeBufferPointer<UInt8>, entries: TapeBuffer) {
        self.bytes = bytes
        self.entries = entries
        ownsEntries = true
    }

    /// Gives the tape back and forgets what one decode built, keeping the tables' storage unless it grew large.
    func clear(into state: DecodeThreadState) {
        if ownsEntries {
            state.recycle(entries.base, capacity: entries.capacity)
            ownsEntries = false
        }
        bytes = UnsafeBufferPointer(start: nil, count: 0)
        if !tables.isEmpty {
            let large = members.capacity > Self.largestKeptTable
            members.removeAll(keepingCapacity: !large)
            buckets.removeAll(keepingCapacity: !large && buckets.capacity <= Self.largestKeptTable)
            tables.removeAll(keepingCapacity: !large)
        }
        if !stringIndexes.isEmpty { stringIndexes = [:] }
        if scratch.count > Self.largestKeptTable { scratch = [] }
        work = 0
        lookedUp = nil
    }

    /// The most members, buckets or scratch bytes the thread's emptied document keeps: a huge message's are freed,
    /// not held.
    static let largestKeptTable = 4096

    /// For tests: the document holds no tape and no tables, and keeps at most `largestKeptTable` of storage.
    var isEmptied: Bool {
        !ownsEntries && bytes.isEmpty && tables.isEmpty && members.isEmpty && buckets.isEmpty && stringIndexes.isEmpty
            && work == 0 && lookedUp == nil && members.capacity <= Self.largestKeptTable
            && buckets.capacity <= Self.largestKeptTable && scratch.count <= Self.largestKeptTable
    }

    // MARK: - Structure

    /// The index of the entry after the value at `index` (and after everything inside it).
    @inline(__always)
    func next(after index: Int32) -> Int32 {
        Self.next(after: index, in: entries)
    }

    /// `next(after:)` on a tape, for readers that hold the tape rather than the document.
    @inline(__always)
    static func next(after index: Int32, in entries: TapeBuffer) -> Int32 {
        let entry = entries[Int(index)]
        return entry.kind == .object || entry.kind == .array ? entry.a : index + 1
    }

    /// The (key, value) tape indices of an object's members, in document order.
    func memberIndices(of object: Int32) -> [(key: Int32, value: Int32)] {
        var result: [(key: Int32, value: Int32)] = []
        result.reserveCapacity(Int(entries[Int(object)].b))
        var index = object + 1
        for _ in 0..<entries[Int(object)].b {
            result.append((index, index + 1))
            index = next(after: index + 1)
        }
        return result
    }
}
