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
final class TapeDocument {
    @exclusivity(unchecked) private(set) var bytes: UnsafeBufferPointer<UInt8>
    @exclusivity(unchecked) private(set) var entries: TapeBuffer
    /// Whether `entries` is this document's to give back: false once `clear(into:)` has given it back.
    @exclusivity(unchecked) private var ownsEntries = true
    /// Member tables, one run per object looked into: each member's key hash and the tape index of its key.
    @exclusivity(unchecked) private var members: ContiguousArray<Member> = []
    /// Hash indexes for the member tables of large objects (see `lookupThreshold`).
    @exclusivity(unchecked) private var buckets: ContiguousArray<Int32> = []
    /// For the tables whose keys must be compared as Swift Strings, by `MemberTable.start`: each distinct key
    /// (the first of equal ones) and its tape index. Built on the first such lookup.
    @exclusivity(unchecked) private var stringIndexes: [Int: [String: Int32]] = [:]
    /// Reused for unescaping strings.
    @exclusivity(unchecked) private var scratch: [UInt8] = []
    /// Work done beyond the scan, in comparable units (members hashed, every probe of a table and comparison of
    /// keys, bytes unescaped, steps of a coding-path walk), so tests can check that decoding stays linear without
    /// timing anything.
    @exclusivity(unchecked) var work = 0
    /// When not nil, every key looked up, as "object index:key" (tests compare what each path reads).
    @exclusivity(unchecked) var lookedUp: Set<String>?

    struct Member {
        /// `slowKey` for a key that must be compared as a Swift String (escapes or non-ASCII bytes); else `hash`
        /// of its bytes, or `strongHash` in a table that needed it.
        var hash: UInt64
        var keyIndex: Int32
    }

    static let slowKey: UInt64 = 0

    /// Objects with more members than this get a hash index, so that looking up every key of a huge object
    /// (a dictionary) stays linear. A smaller object is searched in order: at most this many probes a lookup.
    static let lookupThreshold = 24

    /// Probes a table's hash index may take to insert all its members, beyond which the keys were chosen to
    /// collide in the cheap hash and the index is built again with `strongHash`. A fair hash at the index's load
    /// (at most a half) takes under two probes a member on average.
    static func probeBudget(members: Int) -> Int { 4 * members + 64 }

    /// Takes ownership of `entries`.
    init(bytes: UnsafeBufferPointer<UInt8>, entries: TapeBuffer) {
        self.bytes = bytes
        self.entries = entries
        // Nothing is reserved here: direct extraction (every valid message of a known kind) never builds a
        // member table, and two reservations were two mallocs and two frees per message.
    }

    /// Reserves room for member tables, on the first one built (at most one member per two entries).
    private func reserveTables() {
        members.reserveCapacity(entries.count / 2 + 1)
        tables.reserveCapacity(8)
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

    // MARK: - Keys

    /// An object's members, for lookups by key: a run of `members`, and for a large object a hash index.
    ///
    /// Lookups take work linear in the message whatever its keys: the index holds each distinct key once (the
    /// first of duplicates), keys chosen to collide in the cheap hash get the table rebuilt with a seeded hash,
    /// and keys that must compare as Swift Strings are made Strings once and looked up in a `Dictionary`.
    struct MemberTable {
        /// The object's own tape index.
        var objectIndex: Int32?
        var start: Int
        var count: Int
        /// Some key has escapes or non-ASCII bytes: every lookup compares Swift Strings (`stringLookup`).
        var hasSlowKeys: Bool
        /// A key is not a readable string (bad escape, invalid UTF-8): JSONDecoder cannot open such an object.
        var hasInvalidKey = false
        /// The members' hashes are `strongHash`es, and a key looked up must be hashed so too.
        var hasStrongHashes = false
        /// Where the hash index starts in `buckets`, or -1 for a small object (searched in order) or one with
        /// slow keys.
        var bucketStart: Int
        var bucketMask: Int
    }

    @exclusivity(unchecked) private var tables: [MemberTable] = []

    func markIntegerKeys(_ object: Int32) {
        entries[Int(object)].flags |= TapeEntry.integerKeys
    }

    /// The member table of `object`, built on first use (a keyed container asks once, then looks up many keys).
    func memberTable(of object: Int32) -> MemberTable {
        let cached = entries[Int(object)].c
        if cached > 0 { return tables[Int(cached) - 1] }
        if tables.isEmpty { reserveTables() }
        let count = Int(entries[Int(object)].b)
        let start = members.count
        var hasSlowKeys = false
        var hasInvalidKey = false
        var index = object + 1
        for _ in 0..<count {
            let key = entries[Int(index)]
            let hash: UInt64
            if key.flags & (TapeEntry.escaped | TapeEntry.nonASCII | TapeEntry.control) != 0 {
                hash = Self.slowKey
                hasSlowKeys = true
                if string(at: index) == nil { hasInvalidKey = true }
            } else {
                hash = Self.hash(UnsafeBufferPointer(rebasing: bytes[Int(key.a)..<Int(key.b)]))
            }
            members.append(Member(hash: hash, keyIndex: index))
            index = next(after: index + 1)
        }
        work += count
        var table = MemberTable(objectIndex: object, start: start, count: count, hasSlowKeys: hasSlowKeys,
                                hasInvalidKey: hasInvalidKey, bucketStart: -1, bucketMask: 0)
        // A table with slow keys is looked up by String (`stringLookup`) and needs no hash index.
        if count > Self.lookupThreshold && !hasSlowKeys {
            var bucketCount = 64
            while bucketCount < count * 2 { bucketCount <<= 1 }
            table.bucketStart = buckets.count
            table.bucketMask = bucketCount - 1
            buckets.append(contentsOf: repeatElement(-1, count: bucketCount))
            if !fillIndex(of: table, budget: Self.probeBudget(members: count)) {
                // Keys chosen to collide in the cheap hash (same length, same first and last eight bytes): hash
                // every byte with a per-process seed instead, which no message can aim at.
                table.hasStrongHashes = true
                for position in start..<(start + count) {
                    let key = entries[Int(members[position].keyIndex)]
                    members[position].hash = Self.strongHash(UnsafeBufferPointer(rebasing: bytes[Int(key.a)..<Int(key.b)]))
                    work += 1 + Int(key.b - key.a) / 8
                }
                for slot in table.bucketStart..<(table.bucketStart + bucketCount) { buckets[slot] = -1 }
                work += bucketCount
                _ = fillIndex(of: table, budget: .max)
            }
        }
        tables.append(table)
        entries[Int(object)].c = Int32(tables.count)
        return table
    }

    /// Indexes each distinct key of `table` once, the first of equal keys: members go in in document order, and
    /// a later duplicate, whose probe sequence is the first's, stops at it. So a lookup never walks past more than
    /// one entry per distinct key. False as soon as the probes exceed `budget` (the index is then unfinished).
    private func fillIndex(of table: MemberTable, budget: Int) -> Bool {
        let mask = table.bucketMask
        var probes = table.count  // the first probe of each member
        let complete = members.withUnsafeBufferPointer { allMembers in
            buckets.withUnsafeMutableBufferPointer { allBuckets in
                let members = UnsafeBufferPointer(rebasing: allMembers[table.start..<(table.start + table.count)])
                let buckets = UnsafeMutableBufferPointer(rebasing: allBuckets[table.bucketStart...(table.bucketStart + mask)])
                for position in members.indices {
                    let member = members[position]
                    var slot = Self.slot(member.hash, mask)
                    while true {
                        let occupant = buckets[slot]
                        if occupant < 0 {
                            buckets[slot] = Int32(position)
                            break
                        }
                        let other = members[Int(occupant)]
                        if other.hash == member.hash, keysEqual(other.keyIndex, member.keyIndex) { break }
                        probes += 1
                        if probes > budget { return false }
                        slot = (slot + 1) & mask
                    }
                }
                return true
            }
        }
        work += probes
        return complete
    }

    /// A hash's home slot in an index: its low bit is always set (see `hash`), so it is dropped.
    @inline(__always)
    static func slot(_ hash: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: hash >> 1) & mask
    }

    /// The tape index of the value for `key` in the object of `table`, or nil. Like Foundation, the first of
    /// duplicate keys wins, and keys compare as Swift Strings (so `"\u0074"` is the key `t`).
    func value(forKey key: String, in table: MemberTable) -> Int32? {
        if lookedUp != nil { lookedUp?.insert("\(table.objectIndex ?? -1):\(key)") }
        if table.hasSlowKeys { return stringLookup(key, in: table) }
        var utf8 = key
        return utf8.withUTF8 { keyBytes -> Int32? in
            // Every member's key is plain ASCII, compared byte for byte; a non-ASCII key may still equal one of
            // them as a String (the Kelvin sign is the letter K).
            guard Self.isASCII(keyBytes) else { return stringLookup(key, in: table) }
            return asciiLookup(keyBytes, in: table)
        }
    }

    /// `value(forKey:in:)` for a key written in the code (`init(tape:)`'s literals): its bytes are at hand, with
    /// no String to open and no scan for non-ASCII bytes (`StaticString` knows), which was a fifth of a lookup.
    @inline(__always)
    func value(forKey key: StaticString, in table: MemberTable) -> Int32? {
        guard key.hasPointerRepresentation, key.isASCII, lookedUp == nil, !table.hasSlowKeys else {
            return value(forKey: key.description, in: table)
        }
        return asciiLookup(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount), in: table)
    }

    /// The lookup of a plain ASCII key among plain keys, byte for byte: through the hash index of a large object,
    /// else in order. Both `value(forKey:in:)`s end here.
    @inline(__always)
    private func asciiLookup(_ keyBytes: UnsafeBufferPointer<UInt8>, in table: MemberTable) -> Int32? {
        if table.bucketStart >= 0 {
            let hash: UInt64
            if table.hasStrongHashes {
                hash = Self.strongHash(keyBytes)
                work += keyBytes.count / 8
            } else {
                hash = Self.hash(keyBytes)
            }
            var slot = Self.slot(hash, table.bucketMask)
            while true {
                work += 1
                let position = buckets[table.bucketStart + slot]
                if position < 0 { return nil }
                let member = members[table.start + Int(position)]
                if member.hash == hash, keyEquals(member.keyIndex, keyBytes) { return member.keyIndex + 1 }
                slot = (slot + 1) & table.bucketMask
            }
        }
        let hash = Self.hash(keyBytes)
        var position = table.start
        let end = table.start + table.count
        defer { work += position - table.start + 1 }
        while position < end {
            let member = members[position]
            if member.hash == hash, keyEquals(member.keyIndex, keyBytes) { return member.keyIndex + 1 }
            position += 1
        }
        return nil
    }

    /// Looks `key` up comparing Swift Strings, as Foundation does (canonical equivalence: `"\u0074"` is `t`, a
    /// decomposed `é` the precomposed one, the Kelvin sign the letter K), for a table with escaped or non-ASCII
    /// keys or a non-ASCII key. Each member's key is made a String once, and the first of equal keys indexed in a
    /// `Dictionary` (seeded hashing): each lookup then costs the length of `key`, however many members.
    private func stringLookup(_ key: String, in table: MemberTable) -> Int32? {
        work += 1 + key.utf8.count / 8
        guard table.count > 0 else { return nil }
        if let index = stringIndexes[table.start] { return index[key].map { $0 + 1 } }
        var index: [String: Int32] = [:]
        index.reserveCapacity(table.count)
        for position in table.start..<(table.start + table.count) {
            let keyIndex = members[position].keyIndex
            work += 1
            // An unreadable key makes the table unusable (`hasInvalidKey`); no caller looks such a table up.
            guard let name = string(at: keyIndex) else { continue }
            if index[name] == nil { index[name] = keyIndex }
        }
        stringIndexes[table.start] = index
        return index[key].map { $0 + 1 }
    }

    /// Whether a member's key has `keyBytes`; counted as work in proportion to the bytes compared.
    @inline(__always)
    private func keyEquals(_ keyIndex: Int32, _ keyBytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = entries[Int(keyIndex)]
        let length = Int(entry.b - entry.a)
        work += 1
        guard length == keyBytes.count else { return false }
        guard length > 0, let start = bytes.baseAddress, let other = keyBytes.baseAddress else { return true }
        work += length / 8
        return Self.bytesEqual(start + Int(entry.a), other, count: length)
    }

    /// Whether two plain keys of this message have the same bytes.
    @inline(__always)
    private func keysEqual(_ left: Int32, _ right: Int32) -> Bool {
        let entry = entries[Int(right)]
        return keyEquals(left, UnsafeBufferPointer(rebasing: bytes[Int(entry.a)..<Int(entry.b)]))
    }

    /// Byte equality, eight at a time (BCMessages uses no C library, so no `memcmp`). The last word overlaps the
    /// one before it rather than ending in a loop over single bytes, whose exit mispredicted on strings of every
    /// length (this compare checks each string beyond ASCII that a decode makes).
    @inline(__always)
    static func bytesEqual(_ left: UnsafePointer<UInt8>, _ right: UnsafePointer<UInt8>, count: Int) -> Bool {
        @inline(__always)
        func word<Word: FixedWidthInteger>(_ type: Word.Type, at offset: Int) -> Bool {
            UnsafeRawPointer(left + offset).loadUnaligned(as: Word.self)
                == UnsafeRawPointer(right + offset).loadUnaligned(as: Word.self)
        }
        if count >= 8 {
            var offset = 0
            while count &- offset > 8 {
                if !word(UInt64.self, at: offset) { return false }
                offset &+= 8
            }
            return word(UInt64.self, at: count &- 8)
        }
        if count >= 4 { return word(UInt32.self, at: 0) && word(UInt32.self, at: count &- 4) }
        var offset = 0
        while offset < count {
            if left[offset] != right[offset] { return false }
            offset &+= 1
        }
        return true
    }

    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte >= 0x80 { return false }
        return true
    }

    /// A hash of every byte of a key, seeded per process (`Hasher`, SipHash): for the tables whose keys collide
    /// in the cheap `hash`, which a message can aim at and this one it cannot. Never `slowKey`.
    static func strongHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        return UInt64(truncatingIfNeeded: hasher.finalize()) | 1
    }

    /// A cheap hash of a key's bytes: its length and up to its first and last eight bytes. Never `slowKey`.
    /// Keys of one length that differ only in the middle collide; `fillIndex` notices, and `strongHash` takes over.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var head: UInt64 = 0
        var tail: UInt64 = 0
        let count = bytes.count
        if let base = bytes.baseAddress {
            if count >= 8 {
                head = UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)
                tail = UnsafeRawPointer(base + count - 8).loadUnaligned(as: UInt64.self)
            } else {
                for offset in 0..<count { head |= UInt64(base[offset]) << (8 * UInt64(offset)) }
            }
        }
        var hash = (head &* 0x9E37_79B9_7F4A_7C15) ^ (tail &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)
        hash ^= hash >> 29
        return hash | 1
    }

    // MARK: - Strings

    /// The string at `index`, or nil when it is not a valid JSON string (a bad escape, a lone surrogate, a raw
    /// control character, invalid UTF-8): exactly when Foundation's decoder cannot read it either.
    func string(at index: Int32) -> String? {
        let entry = entries[Int(index)]
        let raw = UnsafeBufferPointer(rebasing: bytes[Int(entry.a)..<Int(entry.b)])
        work += raw.count
        if entry.flags & (TapeEntry.escaped | TapeEntry.control) == 0 {
            return Self.validString(raw, isASCII: entry.flags & TapeEntry.nonASCII == 0)
        }
        guard entry.flags & TapeEntry.control == 0 else { return nil }
        // Unescaping never lengthens a string (`unescape`), so it writes straight into the String's storage.
        if entry.flags & TapeEntry.nonASCII == 0 {
            // Escapes only give valid UTF-8 (a lone surrogate fails), and the rest is ASCII: nothing to validate.
            var failed = false
            let string = String(unsafeUninitializedCapacity: raw.count) { buffer in
                guard let base = buffer.baseAddress, let written = Self.unescape(raw, into: base) else {
                    failed = true
                    return 0
                }
                return written
            }
            return failed ? nil : string
        }
        if scratch.count < raw.count { scratch = [UInt8](repeating: 0, count: raw.count) }
        return scratch.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, let written = Self.unescape(raw, into: base) else { return nil }
            return Self.validString(UnsafeBufferPointer(start: base, count: written), isASCII: false)
        }
    }

    /// `String(decoding:)` repairs invalid UTF-8; comparing the result with the input tells whether it had to.
    /// (`String(validating:)` would check in one pass, but measured 5% slower over the captured corpus.)
    @inline(__always)
    static func validString(_ raw: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String? {
        if isASCII, raw.count <= 15 {
            // A small string (stored inline, no allocation): filled in place, 2-5 ns faster than `String(decoding:)`
            // up to 15 bytes; slower past them (measured over 1-40 bytes).
            return String(unsafeUninitializedCapacity: raw.count) { buffer in
                guard let source = raw.baseAddress, let target = buffer.baseAddress else { return 0 }
                target.update(from: source, count: raw.count)
                return raw.count
            }
        }
        var string = String(decoding: raw, as: UTF8.self)
        if isASCII { return string }
        let same = string.withUTF8 { decoded in
            guard decoded.count == raw.count else { return false }
            guard let left = decoded.baseAddress, let right = raw.baseAddress else { return true }
            return bytesEqual(left, right, count: raw.count)
        }
        return same ? string : nil
    }

    /// Foundation's unescaping rules: `\" \\ \/ \b \f \n \r \t \uXXXX` (a high surrogate must be followed by an
    /// escaped low one); any other escape, or a raw control character, makes the string unreadable (nil).
    ///
    /// Writes at most `raw.count` bytes to `output` (every escape is longer than what it stands for: two bytes
    /// for one, six for at most three, twelve for four), and returns how many.
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) -> Int? {
        guard let base = raw.baseAddress else { return 0 }
        var index = 0
        var written = 0
        let count = raw.count
        while index < count {
            // Eight plain bytes at a time, copied as one word: `written` never passes `index` (every escape is
            // longer than what it writes), so eight bytes stored at `written` while eight remain at `index` stay
            // within the `raw.count` the output holds. (A quote is flagged too, but one inside a string's raw text
            // always follows its backslash, which is flagged first.)
            if count &- index >= 8 {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let special = JSONSpecialBytes.of(UInt64(littleEndian: word))
                UnsafeMutableRawPointer(output + written).storeBytes(of: word, as: UInt64.self)
                if special == 0 {
                    index &+= 8
                    written &+= 8
                    continue
                }
                let plain = special.trailingZeroBitCount &>> 3
                index &+= plain
                written &+= plain
            }
            let byte = base[index]
            if byte != UInt8(ascii: "\\") {
                if byte < 0x20 { return nil }
                output[written] = byte
                written &+= 1
                index &+= 1
                continue
            }
            guard index &+ 1 < count else { return nil }
            // `\u` and `\/` by plain branches first: as cases of one switch (a jump table), the mix of the two in
            // escaped Japanese text and URLs mispredicted the indirect jump at most escapes. They compare the
            // backslash and the escape as one 16-bit word: tested on the escape byte alone, the compiler folded
            // the two tests into the switch below, and the jump table was back.
            let pair = UInt16(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt16.self))
            let escape = base[index &+ 1]
            index &+= 2
            if pair == 0x755C {  // \u
                // A run of them (escaped Japanese text) in a loop of its own, without looking for the next
                // escape eight bytes at a time.
                while true {
                    guard let unit = hexUnit(raw, at: index) else { return nil }
                    index &+= 4
                    var scalar = UInt32(unit)
                    if UTF16.isLeadSurrogate(unit) {
                        guard index &+ 6 <= count, base[index] == UInt8(ascii: "\\"),
                              base[index &+ 1] == UInt8(ascii: "u"),
                              let trail = hexUnit(raw, at: index &+ 2), UTF16.isTrailSurrogate(trail)
                        else { return nil }
                        index &+= 6
                        scalar = 0x10000 &+ ((UInt32(unit) &- 0xD800) &<< 10) &+ (UInt32(trail) &- 0xDC00)
                    } else if UTF16.isTrailSurrogate(unit) {
                        return nil  // a lone trail surrogate is no scalar
                    }
                    // UTF-8 by hand: the scalar is valid here (surrogates paired above, at most U+10FFFF).
                    let out = output + written
                    if scalar < 0x80 {
                        out[0] = UInt8(truncatingIfNeeded: scalar)
                        written &+= 1
                    } else if scalar < 0x800 {
                        out[0] = 0xC0 | UInt8(truncatingIfNeeded: scalar &>> 6)
                        out[1] = 0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F)
                        written &+= 2
                    } else if scalar < 0x10000 {
                        out[0] = 0xE0 | UInt8(truncatingIfNeeded: scalar &>> 12)
                        out[1] = 0x80 | UInt8(truncatingIfNeeded: (scalar &>> 6) & 0x3F)
                        out[2] = 0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F)
                        written &+= 3
                    } else {
                        out[0] = 0xF0 | UInt8(truncatingIfNeeded: scalar &>> 18)
                        out[1] = 0x80 | UInt8(truncatingIfNeeded: (scalar &>> 12) & 0x3F)
                        out[2] = 0x80 | UInt8(truncatingIfNeeded: (scalar &>> 6) & 0x3F)
                        out[3] = 0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F)
                        written &+= 4
                    }
                    guard count &- index >= 6, base[index] == UInt8(ascii: "\\"),
                          base[index &+ 1] == UInt8(ascii: "u") else { break }
                    index &+= 2
                }
                continue
            }
            if pair == 0x2F5C {  // \/
                output[written] = UInt8(ascii: "/")
                written &+= 1
                continue
            }
            let simple: UInt8
            switch escape {
            case UInt8(ascii: "\\"), UInt8(ascii: "\""): simple = escape
            case UInt8(ascii: "b"): simple = 0x08
            case UInt8(ascii: "f"): simple = 0x0C
            case UInt8(ascii: "n"): simple = 0x0A
            case UInt8(ascii: "r"): simple = 0x0D
            case UInt8(ascii: "t"): simple = 0x09
            default:
                return nil
            }
            output[written] = simple
            written &+= 1
        }
        return written
    }

    /// Four hex digits at `index` as a UTF-16 unit, nil when any is not a hex digit.
    ///
    /// All four at once, as one 32-bit word (no branch per digit: Japanese text escaped as `\u30xx` mixes digits
    /// and letters, which a branch per digit mispredicts): each byte must be ASCII and either `0`-`9` or, with its
    /// case bit set, `a`-`f`; adding a constant to each byte sets its high bit exactly when it is at or past a
    /// bound, and no byte below 0x80 carries into the next. A digit's value is its low nibble, plus 9 for a letter
    /// (bit 6 set).
    @inline(__always)
    static func hexUnit(_ raw: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt16? {
        guard index &+ 4 <= raw.count, let base = raw.baseAddress else { return nil }
        let word = UInt32(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt32.self))
        let highs: UInt32 = 0x8080_8080
        guard word & highs == 0 else { return nil }
        let digit = (word &+ 0x5050_5050) & ~(word &+ 0x4646_4646) & highs  // 0x30 <= byte <= 0x39
        let lower = word | 0x2020_2020
        let letter = (lower &+ 0x1F1F_1F1F) & ~(lower &+ 0x1919_1919) & highs  // 0x61 <= byte | 0x20 <= 0x66
        guard digit | letter == highs else { return nil }
        let nibbles = (word & 0x0F0F_0F0F) &+ ((word &>> 6) & 0x0101_0101) &* 9
        return UInt16(truncatingIfNeeded: (nibbles & 0xFF) &<< 12 | (nibbles &>> 8 & 0xFF) &<< 8
                      | (nibbles &>> 16 & 0xFF) &<< 4 | nibbles &>> 24)
    }
}

/// A document scanned for one decode (`TapeDocument.lend(scanning:)`), read through `document` without a retain
/// or a release, and given back once the decode is over.
struct LentTapeDocument {
    /// Unretained when it is the thread's (the thread holds it), retained when it is one of its own.
    let document: Unmanaged<TapeDocument>
    /// The state of the thread that lent it (the thread holds it too); nil for a document of its own.
    let thread: Unmanaged<DecodeThreadState>?

    /// Ends the loan: the thread's document is emptied for the next message, unless something still holds it
    /// (then the thread lets it go, and makes another); one of its own is released.
    func giveBack() {
        if let thread {
            thread._withUnsafeGuaranteedRef { $0.documentGivenBack(document) }
        } else {
            document.release()
        }
    }
}
