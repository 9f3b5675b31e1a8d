import CZlib

/// Deflates the messages a server sends on a connection that agreed to permessage-deflate (RFC 7692 7.2.1): one
/// raw-deflate stream, each frame's payload flushed (`Z_SYNC_FLUSH`) so that every frame asked for goes on the wire
/// as it is (a message sent in 4 fragments is 4 frames), and the 4 bytes a flush ends with (00 00 FF FF) taken off
/// the message's last frame, as the receiver puts them back.
///
/// The window is the one agreed (`server_max_window_bits`; zlib's raw deflate cannot make 8, and makes 9, whose
/// distances stay within 250 bytes, so a 256-byte window reads it), and with `server_no_context_takeover` the stream
/// starts afresh for each message. zlib's state (some 260 KiB at 15 bits) is allocated only at the first message,
/// so a connection that agreed to deflate and is never sent anything costs nothing.
///
/// A class: zlib keeps a pointer to the `z_stream` inside its state, so the stream must not move.
final class MessageDeflater {
    /// zlib's fastest level: a replay sends each message to every subscriber of its key, deflating it once each.
    static let level: Int32 = 1

    let windowBits: Int
    let noContextTakeover: Bool
    private var stream: UnsafeMutablePointer<z_stream>?

    init(windowBits: Int, noContextTakeover: Bool) {
        self.windowBits = min(15, max(9, windowBits))
        self.noContextTakeover = noContextTakeover
    }

    deinit {
        if let stream {
            deflateEnd(stream)
            stream.deallocate()
        }
    }

    /// Deflates one frame's payload into `output` (its previous contents replaced). `endsMessage`: the message's
    /// last frame. False when zlib has no memory for its state.
    func deflate(_ input: UnsafeRawBufferPointer, endsMessage: Bool, into output: inout [UInt8]) -> Bool {
        output.removeAll(keepingCapacity: true)
        guard let stream = openStream() else { return false }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
        }
        var produced = 0
        while true {
            // Room for data that does not compress (5 bytes a stored block of up to 16 KiB, and the flush's 5), so
            // that one call nearly always does; more is added while zlib fills it.
            let room = max(64, input.count + input.count / 1024 + 64)
            if output.count < produced + room { output.append(contentsOf: repeatElement(0, count: produced + room - output.count)) }
            let status = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
                stream.pointee.next_out = buffer.baseAddress! + produced
                stream.pointee.avail_out = uInt(buffer.count - produced)
                return CZlib.deflate(stream, Z_SYNC_FLUSH)
            }
            produced = output.count - Int(stream.pointee.avail_out)
            stream.pointee.next_out = nil
            // Z_BUF_ERROR: nothing to do (no input, and the last call flushed already).
            guard status == Z_OK || status == Z_BUF_ERROR else { return false }
            if stream.pointee.avail_in == 0, stream.pointee.avail_out > 0 { break }
        }
        output.removeSubrange(produced...)
        guard endsMessage else { return true }
        if output.count >= 4, output[(output.count - 4)...].elementsEqual([0x00, 0x00, 0xFF, 0xFF]) {
            output.removeLast(4)
        }
        // An empty message compresses to nothing once its flush is taken off: one empty block says so (7.2.3.6).
        if output.isEmpty { output = [0x00] }
        if noContextTakeover { deflateReset(stream) }
        return true
    }

    private func openStream() -> UnsafeMutablePointer<z_stream>? {
        if let stream { return stream }
        let made = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        made.initialize(to: z_stream())
        guard bc_deflate_init_raw(made, Self.level, Int32(windowBits), 8) == Z_OK else {
            made.deallocate()
            return nil
        }
        stream = made
        return made
    }
}
