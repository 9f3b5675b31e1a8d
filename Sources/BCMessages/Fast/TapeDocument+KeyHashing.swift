#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The byte-level work of key lookups: the cheap and the seeded hash of a key, and byte equality.
extension TapeDocument {
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
}
