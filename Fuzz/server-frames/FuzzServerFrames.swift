// The libFuzzer target of the server's frame reading: what a client sends after the upgrade, through FrameReader
// (server role: every frame must be masked, and is unmasked in place), MessageInflater and MessageAssembler, as
// ServiceCore+LinkReading.swift joins them for a WebSocketServer. The pipeline is frames/FramePipeline.swift.
//
// Input: one byte of settings, then the stream of client frames. Settings: bit 0 deflate agreed; bits 1-2 the
// message cap (1 MiB, 4096, 100, 0); bits 3-4 the inflater's scratch (64 KiB, 4096, 61, 1); bits 5-7 how the
// stream is cut into chunks (`chunkSizes`).
//
// Holds, for every input, what `frames` holds (FuzzFrames.swift), in the server's role: no trap and no bad memory
// access (a 14-byte header cut anywhere, a mask key cut anywhere); payload slices inside their chunk; a frame
// yields exactly its announced bytes; an unmasked frame is a violation and nothing after it is read; and the
// stream read whole and cut into chunks gives the same frames, control frames, violations, messages and refusals,
// which also proves the unmasking picks up the key where each cut left it.

@testable import BCWebSocket

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let settings = data[0]
    let stream = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let deflate = settings & 1 != 0
    let limit = [1 << 20, 4096, 100, 0][Int(settings >> 1 & 3)]
    let scratchSize = [64 * 1024, 4096, 61, 1][Int(settings >> 3 & 3)]
    let whole = FuzzFrames.read(stream, cuts: [stream.count], role: .server, deflate: deflate, limit: limit,
                                scratch: scratchSize)
    let cut = FuzzFrames.read(stream, cuts: chunkSizes(stream.count, pattern: Int(settings >> 5)), role: .server,
                              deflate: deflate, limit: limit, scratch: scratchSize)
    if whole != cut, !FuzzFrames.bothRefusedTheLastMessage(whole, cut) {
        fatalError("the stream read whole and cut into chunks differ:\n  whole: \(whole)\n  cut:   \(cut)")
    }
    if let first = whole.first, stream.count >= 2, stream[1] & 0x80 == 0 {
        require(first == .violation("the client sent an unmasked frame (RFC 6455 5.1)"), "an unmasked frame was read")
    }
    return 0
}
