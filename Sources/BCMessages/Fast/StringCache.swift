#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The Strings a thread's decodes made lately, by the bytes they were made from: a message of a live repeats
/// the values of the messages before it (the same viewers' names, avatars and badges on every comment and
/// join, the same gift titles and image URLs on every gift), and a String found here costs a hash, a compare
/// and a retain instead of an allocation, a copy and a UTF-8 check (and, later, a free).
///
/// Bounded whatever the input: `slots` entries, direct-mapped (a new string takes its slot from the old one),
/// each holding a String made from at most `maximumLength` bytes; a lookup costs work linear in the bytes
/// looked up, hit or miss, so text chosen to collide only makes every lookup a miss. Only Strings that were
/// read successfully are kept, and a hit is a String equal to what reading the same bytes again would give
/// (the same bytes give the same String: decoding depends on nothing else).
///
/// One cache per thread (`DecodeThreadState`), so decodes on several threads never share or lock one. A decode
/// is synchronous: the cache it took at its start is used on that thread only, and only until it returns.
final class StringCache {
    /// Strings made from fewer bytes are stored inside the String itself (no allocation to save).
    static let minimumLength = 16
    static let maximumLength = 128
    static let slots = 1024

    private let hashes: UnsafeMutablePointer<UInt64>
    private let lengths: UnsafeMutablePointer<Int32>
    private let keys: UnsafeMutablePointer<UInt8>
    private let values: UnsafeMutablePointer<String>
    /// Lookups and hits, for tests.
    private(set) var lookups = 0
    private(set) var hits = 0

    init() {
        hashes = .allocate(capacity: Self.slots)
        hashes.initialize(repeating: 0, count: Self.slots)
        lengths = .allocate(capacity: Self.slots)
        lengths.initialize(repeating: 0, count: Self.slots)
        keys = .allocate(capacity: Self.slots * Self.maximumLength)
        values = .allocate(capacity: Self.slots)
        values.initialize(repeating: "", count: Self.slots)
    }

    deinit {
        hashes.deallocate()
        lengths.deallocate()
        keys.deallocate()
        values.deinitialize(count: Self.slots)
        values.deallocate()
    }

    /// Whether bytes of this length are looked up at all.
    @inline(__always)
    static func caches(length: Int) -> Bool {
        length >= minimumLength && length <= maximumLength
    }

    /// The String made from `raw` (by `make`, whose nil is returned and not kept), from the cache when `raw`
    /// was seen lately. `raw` must be of a length that `caches(length:)` takes.
    @inline(__always)
    func string(for raw: UnsafeBufferPointer<UInt8>, make: () -> String?) -> String? {
        guard let base = raw.baseAddress else { return make() }
        let count = raw.count
        let hash = Self.hash(base, count)
        let slot = Int(truncatingIfNeeded: hash &>> 40) & (Self.slots - 1)
        let key = keys + slot * Self.maximumLength
        lookups &+= 1
        if hashes[slot] == hash, lengths[slot] == Int32(truncatingIfNeeded: count), memcmp(key, base, count) == 0 {
            hits &+= 1
            return values[slot]
        }
        guard let made = make() else { return nil }
        hashes[slot] = hash
        lengths[slot] = Int32(truncatingIfNeeded: count)
        key.update(from: base, count: count)
        values[slot] = made
        return made
    }

    /// A hash of the bytes, eight at a time (never 0, the empty slot's).
    @inline(__always)
    static func hash(_ base: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        var hash: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(truncatingIfNeeded: count)
        var index = 0
        while count &- index >= 8 {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash &>> 32
            index &+= 8
        }
        if index < count {
            // The last eight bytes (overlapping the ones above: count is at least minimumLength).
            let word = UnsafeRawPointer(base + (count &- 8)).loadUnaligned(as: UInt64.self)
            hash = (hash ^ word) &* 0xC2B2_AE3D_27D4_EB4F
        }
        hash ^= hash &>> 29
        return hash | 1
    }
}
