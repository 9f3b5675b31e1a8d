// The libFuzzer target of the client's frame reading: what a server sends after the upgrade, through
// FrameReader (client role), MessageInflater (permessage-deflate) and MessageAssembler, as
// ServiceCore+LinkReading.swift joins them (`readFrames`, `inflate`, `take`, `assembled`; the link's close handling
// is left out). The pipeline and what it asserts are FramePipeline.swift's, shared with `server-frames`.
//
// Input: one byte of settings, then the stream. Settings: bit 0 deflate agreed; bits 1-2 the message cap
// (1 MiB, 4096, 100, 0); bits 3-4 the inflater's scratch (64 KiB as the service's, 4096, 61, 1); bits 5-7 how
// the stream is cut into chunks (`chunkSizes`).
//
// Holds, for every input: no trap and no bad memory access (each chunk is its own allocation of its exact size,
// so AddressSanitizer sees a read past it); every payload slice lies inside its chunk, before the offset the
// reader returns, which never goes back nor past the chunk; a frame yields exactly its announced bytes, never
// more, and all payload together never more than the stream; a control payload is at most 125 bytes; nothing
// is read after a violation; the inflater hands out at most one scratch beyond the cap per message, and stops
// when told; the assembler never hands over more than the cap; and the stream read whole and cut into chunks
// gives the same frames, control frames, violations, messages and refusals (a compressed message that does not
// inflate may be refused as too big instead, when its pieces before the fault passed the cap).

@testable import BCWebSocket

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzFrames.run(data, size, role: .client)
}
