/// Frames what the client sends (RFC 6455 5.2 and 5.3): the header, a mask key fresh for each frame (a client's
/// frames are always masked, so that a proxy in the way cannot be made to read them as something else) and the
/// masked payload.
enum ClientFrameWriter {
    /// The most a frame adds to its payload: a 10-byte header and the 4-byte mask key.
    static let overhead = 14

    /// Writes one frame at `at` (room for `overhead + payload.count` bytes); returns where it ends.
    static func write(head: UInt8, payload: UnsafeRawBufferPointer, mask: UInt32,
                      into at: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var end = ServiceCore.frameHeader(head: head, length: payload.count, into: at)
        at[1] |= 0x80
        let key = [UInt8(truncatingIfNeeded: mask >> 24), UInt8(truncatingIfNeeded: mask >> 16),
                   UInt8(truncatingIfNeeded: mask >> 8), UInt8(truncatingIfNeeded: mask)]
        for index in 0..<4 { end[index] = key[index] }
        end += 4
        for index in 0..<payload.count { end[index] = payload[index] ^ key[index & 3] }
        return end + payload.count
    }
}
