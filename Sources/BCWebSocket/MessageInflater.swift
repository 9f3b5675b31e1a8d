#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CZlib

/// Inflates the permessage-deflate messages of one connection (RFC 7692 7.2.2): one raw-deflate stream for all
/// of them, each message's compressed bytes followed by the 4 bytes its sender took off (00 00 FF FF).
///
/// zlib's window (32 KiB at `windowBits` 15) is allocated only when the first compressed message arrives, so a connection that
/// agreed to deflate but receives nothing costs nothing. The stream is kept across messages: that reads both a
/// server that takes its context over and one that does not. Inflating is linear in what comes out, and the caller
/// stops it (`sink` returns false) once a message passes its cap: a small frame that inflates to gigabytes
/// inflates no further than the cap.
///
/// Memory: zlib's state (about 7 KiB) and its window (32 KiB), allocated once and kept, whatever the number or size
/// of the messages (`zlibBytes` counts them). The window is written as text comes, so a connection's resident memory
/// grows by each message's inflated size until its first 32 KiB have arrived, then stays put (DESIGN.md, "Many
/// channels"): a growth per message that levels off, not a leak.
///
/// A class: zlib keeps a pointer to the `z_stream` inside its state, so the stream must not move.
final class MessageInflater {
    enum Outcome: Equatable {
        /// Everything given was inflated.
        case done
        /// `sink` asked to stop.
        case stopped
        /// Not a deflate stream: zlib's words.
        case corrupt(String)
    }

    private var stream: UnsafeMutablePointer<z_stream>?
    /// The window inflated with: the largest (15) reads any sender's.
    private let windowBits: Int32
    /// What zlib holds now, in bytes (its allocations go through `Self.allocate` and `Self.release`, which count them
    /// here): 0 before the first compressed message.
    private let allocated = UnsafeMutablePointer<Int>.allocate(capacity: 1)

    init(windowBits: Int32 = 15) {
        self.windowBits = windowBits
        allocated.initialize(to: 0)
    }

    deinit {
        if let stream {
            inflateEnd(stream)
            stream.deallocate()
        }
        allocated.deallocate()
    }

    /// The bytes zlib holds for this connection: its state and window once a compressed message came, else 0.
    var zlibBytes: Int { allocated.pointee }

    private static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

    /// Inflates `input`, and after it the message's tail when `endsMessage`, handing the output to `sink` in
    /// pieces of at most `scratch.count` bytes.
    func inflate(_ input: UnsafeRawBufferPointer, endsMessage: Bool, scratch: UnsafeMutableRawBufferPointer,
                 sink: (UnsafeRawBufferPointer) -> Bool) -> Outcome {
        guard let stream = openStream() else { return .corrupt("no memory to decompress it") }
        let outcome = run(stream, input, scratch: scratch, sink: sink)
        guard outcome == .done, endsMessage else { return outcome }
        return Self.tail.withUnsafeBytes { run(stream, $0, scratch: scratch, sink: sink) }
    }

    private func openStream() -> UnsafeMutablePointer<z_stream>? {
        if let stream { return stream }
        let made = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        made.initialize(to: z_stream())
        made.pointee.zalloc = Self.allocate
        made.pointee.zfree = Self.release
        made.pointee.opaque = UnsafeMutableRawPointer(allocated)
        guard bc_inflate_init_raw(made, windowBits) == Z_OK else {
            made.deallocate()
            return nil
        }
        stream = made
        return made
    }

    /// zlib's allocator: `malloc`, with the size kept in front of the block (16 bytes, for alignment) and added to
    /// the count `opaque` points to. zlib allocates only when the stream is made and at the first inflated byte.
    private static let allocate: alloc_func = { opaque, items, size in
        let (bytes, overflow) = Int(items).multipliedReportingOverflow(by: Int(size))
        guard !overflow, let block = malloc(16 + bytes) else { return nil }
        block.storeBytes(of: bytes, as: Int.self)
        opaque!.assumingMemoryBound(to: Int.self).pointee += bytes
        return block + 16
    }

    private static let release: free_func = { opaque, address in
        guard let address else { return }
        let block = address - 16
        opaque!.assumingMemoryBound(to: Int.self).pointee -= block.load(as: Int.self)
        free(block)
    }

    private func run(_ stream: UnsafeMutablePointer<z_stream>, _ input: UnsafeRawBufferPointer,
                     scratch: UnsafeMutableRawBufferPointer, sink: (UnsafeRawBufferPointer) -> Bool) -> Outcome {
        guard let base = input.baseAddress, !input.isEmpty else { return .done }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
        }
        let out = scratch.baseAddress!.assumingMemoryBound(to: Bytef.self)
        while true {
            stream.pointee.next_out = out
            stream.pointee.avail_out = uInt(scratch.count)
            let status = CZlib.inflate(stream, Z_SYNC_FLUSH)
            let produced = scratch.count - Int(stream.pointee.avail_out)
            switch status {
            case Z_OK, Z_BUF_ERROR, Z_STREAM_END:
                break
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "error \(status)"
                return .corrupt(message)
            }
            if produced > 0, !sink(UnsafeRawBufferPointer(start: scratch.baseAddress, count: produced)) {
                return .stopped
            }
            if status == Z_STREAM_END {
                // A final deflate block: what follows starts a new stream (a sender that resets per message).
                inflateReset(stream)
                if stream.pointee.avail_in == 0 { return .done }
                continue
            }
            // Done when zlib has taken every input byte and had room to spare for its output.
            if stream.pointee.avail_in == 0, stream.pointee.avail_out > 0 { return .done }
            if status == Z_BUF_ERROR, produced == 0 { return .done }
        }
    }
}
