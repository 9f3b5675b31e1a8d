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
    FuzzFrames.run(data, size, role: .server)
}
