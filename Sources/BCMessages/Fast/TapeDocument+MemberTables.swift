#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Looking keys up in a document's objects: a member table per object looked into, built on first use, and for a
/// large object a hash index over it (the hashes and byte compares are in `TapeDocument+KeyHashing.swift`).
extension TapeDocument {
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

    /// Reserves room for member tables, on the first one built (at most one member per two entries).
    private func reserveTables() {
        members.reserveCapacity(entries.count / 2 + 1)
        tables.reserveCapacity(8)
    }

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
}
