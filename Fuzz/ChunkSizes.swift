// Shared by every target (Fuzz/run.sh compiles Fuzz/*.swift into each): where a target cuts its input into the
// chunks it feeds, to hold a reader to reading the same whole and in pieces.

/// Chunk sizes that add up to `count` (one chunk of 0 for an empty input): pattern 0 a byte at a time, else
/// pieces of 1 to 2^pattern + 1 bytes from a small generator seeded by `count`, so cuts fall anywhere.
func chunkSizes(_ count: Int, pattern: Int) -> [Int] {
    var sizes: [Int] = []
    var left = count
    var state = UInt32(truncatingIfNeeded: count) &* 2_654_435_761 | 1
    while left > 0 {
        state ^= state << 13; state ^= state >> 17; state ^= state << 5
        let size = pattern == 0 ? 1 : 1 + Int(state % UInt32((1 << pattern) + 1))
        sizes.append(min(size, left))
        left -= sizes[sizes.count - 1]
    }
    return sizes.isEmpty ? [0] : sizes
}

/// Calls `body` with `bytes[range]` copied into a fresh allocation of exactly its size, freed afterwards: a reader
/// that reads past its chunk then overflows the heap, which AddressSanitizer reports (a slice of the whole input
/// would let it read on unnoticed).
func withExactChunk<Result>(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>,
                            _ body: (UnsafeMutableRawBufferPointer) -> Result) -> Result {
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: range.count, alignment: 1)
    defer { chunk.deallocate() }
    if !range.isEmpty { chunk.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[range])) }
    return body(chunk)
}
