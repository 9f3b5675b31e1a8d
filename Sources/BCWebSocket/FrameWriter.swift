/// Frames what this side sends (RFC 6455 5.2 and 5.3): the header, then the payload. A client's frames are always
/// masked, with a key fresh for each frame (so that a proxy in the way cannot be made to read them as something
/// else); a server's never are.
enum FrameWriter {
    /// The most a frame adds to its payload: a 10-byte header and the 4-byte mask key.
    static let overhead = 14

    /// Writes one frame at `at` (room for `overhead + payload.count` bytes), masked with `mask` when there is one;
    /// returns where it ends.
    static func write(head: UInt8, payload: UnsafeRawBufferPointer, mask: UInt32?,
                      into at: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var end = header(head: head, length: payload.count, into: at)
        if let mask {
            at[1] |= 0x80
            // The key's bytes in wire order: byte i of the key masks payload byte i mod 4.
            for index in 0..<4 { end[index] = UInt8(truncatingIfNeeded: mask >> (8 * index)) }
            end += 4
        }
        if let base = payload.baseAddress, !payload.isEmpty {
            end.update(from: base.assumingMemoryBound(to: UInt8.self), count: payload.count)
            if let mask { _ = FrameMask.apply(mask, to: UnsafeMutableRawBufferPointer(start: end, count: payload.count)) }
        }
        return end + payload.count
    }

    /// Writes an unmasked frame header (FIN, RSV1 and the opcode in `head`, then the length) at `at`; returns where
    /// the mask key or the payload goes.
    static func header(head: UInt8, length: Int, into at: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        at[0] = head
        if length < 126 {
            at[1] = UInt8(length)
            return at + 2
        }
        if length <= 0xFFFF {
            at[1] = 126
            at[2] = UInt8(truncatingIfNeeded: length >> 8)
            at[3] = UInt8(truncatingIfNeeded: length)
            return at + 4
        }
        at[1] = 127
        for index in 0..<8 { at[2 + index] = UInt8(truncatingIfNeeded: UInt64(length) >> (56 - 8 * index)) }
        return at + 10
    }
}

/// The XOR of RFC 6455 5.3, in place. A key is a `UInt32` whose lowest byte masks the next payload byte (the key's
/// first byte on the wire, for a frame's first byte); `apply` returns the key turned to where the bytes after
/// `buffer` go on, so that a payload cut anywhere is unmasked piece by piece.
enum FrameMask {
    /// The key of a frame header's 4 mask bytes, in wire order.
    static func key(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
    }

    /// Masks (or unmasks: the same XOR) `buffer` with `key`, eight bytes at a time; returns the key for the bytes
    /// that follow.
    @discardableResult
    static func apply(_ key: UInt32, to buffer: UnsafeMutableRawBufferPointer) -> UInt32 {
        guard let base = buffer.baseAddress, key != 0 else { return key }
        let count = buffer.count
        let wide = UInt64(key) | UInt64(key) << 32
        var index = 0
        while index + 8 <= count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            base.storeBytes(of: (word ^ wide).littleEndian, toByteOffset: index, as: UInt64.self)
            index += 8
        }
        var rest = key
        while index < count {
            base.storeBytes(of: base.load(fromByteOffset: index, as: UInt8.self) ^ UInt8(truncatingIfNeeded: rest),
                            toByteOffset: index, as: UInt8.self)
            rest = rest >> 8 | rest << 24
            index += 1
        }
        // Whole words leave the key where it was; the bytes after them turned it by one byte each.
        return rest
    }
}
