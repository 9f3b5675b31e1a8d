import Foundation

/// Reads an open file (a file, a pipe, stdin) as bytes, in chunks, and hands out its lines one at a time: memory
/// stays within one chunk and one line however long the input, and each byte is looked at a bounded number of
/// times, so the work is linear in the input.
///
/// A line is the bytes up to a `\n`, without it and without a `\r` before it; the last line needs no `\n`. A line
/// longer than `maxLineBytes` is not kept: it is reported as `.tooLong` with its size, and reading goes on with the
/// next line. A UTF-8 byte order mark at the very start is dropped. Lines are bytes: whether they are UTF-8 is
/// the reader's caller's business, so that a bad byte spoils only its own line.
public struct LineReader: Sendable {
    /// One line as `forEachLine` hands it out.
    public enum Line {
        /// A line's bytes (valid until the callback returns).
        case bytes(ArraySlice<UInt8>)
        /// A line longer than the limit, of this many bytes; not kept.
        case tooLong(bytes: Int)
    }

    /// Why reading stopped early.
    public enum Failure: Error, Equatable {
        /// A NUL byte near the start: the file holds binary data, not text.
        case binary
        /// `read` failed with this `errno`.
        case system(Int32)
        /// A whole file read with `readAll` is larger than this.
        case tooLarge(limit: Int)
    }

    /// The longest line kept: 16 MiB, sixteen times the largest message the listener accepts.
    public static let defaultMaxLineBytes = 16 << 20
    /// How much one `read` asks for.
    public static let chunkBytes = 64 << 10
    /// How much of the start is looked at for a NUL byte, as git and grep do to tell binary files.
    public static let binaryProbeBytes = 8000

    /// The open file read; the reader neither opens nor closes it.
    public let descriptor: Int32
    /// The longest line kept; a longer one is reported as `.tooLong`.
    public var maxLineBytes = LineReader.defaultMaxLineBytes

    /// A reader of `descriptor` that keeps lines of at most `maxLineBytes`.
    public init(descriptor: Int32, maxLineBytes: Int = LineReader.defaultMaxLineBytes) {
        self.descriptor = descriptor
        self.maxLineBytes = maxLineBytes
    }

    /// Calls `body` with each line, numbered from 1, in order, until the end of the input, and `chunkDone` after
    /// the lines of each chunk read (for a caller that flushes its output as input trickles in).
    public func forEachLine(_ body: (_ number: Int, _ line: Line) -> Void, chunkDone: () -> Void = {}) throws(Failure) {
        var chunk = [UInt8](repeating: 0, count: Self.chunkBytes)
        var pending: [UInt8] = []   // the start of a line that continues in the next chunk
        var discarding: Int?        // the size so far of a line too long to keep
        var number = 0
        var first = true

        func emit(_ line: ArraySlice<UInt8>) {
            number += 1
            var line = line
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
            body(number, .bytes(line))
        }
        func emitTooLong(_ bytes: Int) {
            number += 1
            body(number, .tooLong(bytes: bytes))
        }

        while true {
            let count = try readChunk(into: &chunk)
            if first {
                first = false
                if chunk[..<min(count, Self.binaryProbeBytes)].contains(0) { throw .binary }
            }
            guard count > 0 else { break }
            var start = 0
            while start < count {
                let newline = chunk.withUnsafeBufferPointer { buffer -> Int? in
                    guard let found = memchr(buffer.baseAddress! + start, Int32(UInt8(ascii: "\n")), count - start)
                    else { return nil }
                    return buffer.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                }
                let end = newline ?? count
                if let size = discarding {
                    discarding = size + (end - start)
                } else if pending.count + (end - start) > maxLineBytes {
                    discarding = pending.count + (end - start)
                    pending = []
                } else if newline != nil, pending.isEmpty {
                    emit(chunk[start..<end])  // the common case: a whole line inside the chunk, not copied
                } else {
                    pending.append(contentsOf: chunk[start..<end])
                }
                guard newline != nil else { break }
                if let size = discarding {
                    emitTooLong(size)
                    discarding = nil
                } else if !pending.isEmpty {
                    emit(pending[...])
                    pending.removeAll(keepingCapacity: pending.count <= Self.chunkBytes)
                }
                start = end + 1
            }
            chunkDone()
        }
        if let size = discarding {
            emitTooLong(size)
        } else if !pending.isEmpty {
            emit(pending[...])
        }
    }

    /// The whole input as one piece, at most `limit` bytes (a `.json` fixture is one message, possibly over many
    /// lines).
    public func readAll(limit: Int = LineReader.defaultMaxLineBytes) throws(Failure) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: Self.chunkBytes)
        var all: [UInt8] = []
        while true {
            let count = try readChunk(into: &chunk)
            if all.isEmpty, chunk[..<min(count, Self.binaryProbeBytes)].contains(0) { throw .binary }
            guard count > 0 else { return all }
            if all.count + count > limit { throw .tooLarge(limit: limit) }
            all.append(contentsOf: chunk[..<count])
        }
    }

    /// One `read` into `chunk`, again when interrupted by a signal; 0 at the end of the input.
    private func readChunk(into chunk: inout [UInt8]) throws(Failure) -> Int {
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count >= 0 { return count }
            if errno != EINTR { throw .system(errno) }
        }
    }
}
