// The libFuzzer target of `bcstream decode`'s reading of a file: LineReader (lines out of reads of any size) and
// DecodeInput (what a line holds: a message, a bcsvr line, a recorded frame), both BCReplay's.
//
// Input: the file's bytes. The reads are cut where the file's hash says (an AF_UNIX SOCK_SEQPACKET socket hands
// each write to one `read`, so the cuts are exact without a thread), and the line cap is 8 to 64 bytes for one
// input in four, else the default.
//
// Holds, for every input: no trap and no bad memory access; LineReader gives the lines a plain split of the bytes
// gives (`\n` cuts, a `\r` before it dropped, a byte order mark dropped from the first line, a line longer than
// the cap reported with its size, binary data refused when the first read holds a NUL), whatever the cuts; for
// each line: `trimmed` equals Foundation's trimming, the byte search for `"time"` and `"key"` finds them whenever
// Foundation's search does, a line that is not UTF-8 is shown with its bad bytes escaped and the first of them
// named at its right place, and what `detect` finds is bounded by the line (no more items than bcsvr lines in it).

import BCListener
@testable import BCReplay
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzDecodeInput.check(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

enum FuzzDecodeInput {
    static let decoder = JSONDecoder()

    enum Line: Equatable {
        case bytes([UInt8])
        case tooLong(Int)
        case binary
    }

    static func check(_ bytes: [UInt8]) {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let cap = hash & 3 == 0 ? 8 + Int(hash >> 2 & 63) % 57 : LineReader.defaultMaxLineBytes
        let read = readLines(bytes, cuts: cuts(bytes.count, seed: hash), cap: cap)
        let expected = referenceLines(bytes, firstRead: cuts(bytes.count, seed: hash).first ?? 0, cap: cap)
        require(read == expected, "LineReader gave \(read), a plain split \(expected)")
        for line in read {
            guard case .bytes(let line) = line else { continue }
            checkLine(line)
        }
    }

    /// Read sizes that add up to `count`, at most a SOCK_SEQPACKET record each (64 pieces at most).
    static func cuts(_ count: Int, seed: UInt32) -> [Int] {
        var state = seed | 1
        var sizes: [Int] = []
        var left = count
        while left > 0 {
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            let size = sizes.count == 63 ? left : 1 + Int(state % UInt32(1 << (state >> 28 & 7) + 1))
            sizes.append(min(size, left))
            left -= sizes[sizes.count - 1]
        }
        return sizes
    }

    static func readLines(_ bytes: [UInt8], cuts: [Int], cap: Int) -> [Line] {
        var pair: [Int32] = [0, 0]
        require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &pair) == 0, "socketpair: \(errno)")
        defer { close(pair[0]) }
        var big = Int32(4 << 20)
        setsockopt(pair[1], SOL_SOCKET, SO_SNDBUF, &big, socklen_t(MemoryLayout<Int32>.size))
        var start = 0
        for size in cuts {
            let sent = bytes[start..<start + size].withUnsafeBytes { send(pair[1], $0.baseAddress, size, 0) }
            require(sent == size, "send \(sent) of \(size): \(errno)")
            start += size
        }
        close(pair[1])
        var lines: [Line] = []
        do {
            try LineReader(descriptor: pair[0], maxLineBytes: cap).forEachLine { number, line in
                require(number == lines.count + 1, "line \(number) after \(lines.count)")
                switch line {
                case .bytes(let bytes):
                    require(bytes.count <= cap, "a line of \(bytes.count) bytes kept past a cap of \(cap)")
                    lines.append(.bytes(Array(bytes)))
                case .tooLong(let size):
                    require(size > cap)
                    lines.append(.tooLong(size))
                }
            }
        } catch .binary {
            return [.binary]
        } catch {
            fatalError("LineReader failed: \(error)")
        }
        return lines
    }

    static func referenceLines(_ bytes: [UInt8], firstRead: Int, cap: Int) -> [Line] {
        if bytes.prefix(min(firstRead, LineReader.binaryProbeBytes)).contains(0) { return [.binary] }
        var pieces = bytes.split(separator: 10, omittingEmptySubsequences: false).map(Array.init)
        if pieces.last?.isEmpty == true { pieces.removeLast() }
        return pieces.enumerated().map { index, piece in
            if piece.count > cap { return .tooLong(piece.count) }
            var line = piece[...]
            if line.last == 13 { line = line.dropLast() }
            if index == 0, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
            return .bytes(Array(line))
        }
    }

    static func checkLine(_ bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let (shown, firstBad) = DecodeInput.escapingInvalidUTF8(bytes)
            guard let firstBad else { fatalError("bytes that are not UTF-8 without a bad byte") }
            require(firstBad.offset < bytes.count && bytes[firstBad.offset] == firstBad.value)
            require(String(validating: bytes[..<firstBad.offset], as: UTF8.self) != nil,
                         "the first bad byte named at \(firstBad.offset), after bytes that are not UTF-8")
            require(shown.utf8.count <= 4 * bytes.count)
            guard case .notDecodable = DecodeInput.notUTF8(bytes) else { fatalError() }
            return
        }
        let (shown, firstBad) = DecodeInput.escapingInvalidUTF8(bytes)
        require(shown == text && firstBad == nil, "UTF-8 text shown as \(shown.debugDescription)")
        let trimmed = DecodeInput.trimmed(text)
        let foundation = text.trimmingCharacters(in: .whitespacesAndNewlines)
        require(trimmed == foundation, "trimmed \(trimmed.debugDescription), Foundation \(foundation.debugDescription)")
        for (needle, found) in [("\"time\"", DecodeInput.containsBytes(text, "\"time\"")),
                                ("\"key\"", DecodeInput.containsBytes(text, "\"key\""))] {
            if text.contains(needle) { require(found, "Foundation finds \(needle) in \(text.debugDescription), the byte search does not") }
            require(found == contains(Array(text.utf8), Array(needle.utf8)))
        }
        require(DecodeInput.looksLikeRecordedFrame(text) == (text.contains("\"time\"") && text.contains("\"key\"")))
        let items = DecodeInput.detect(text, decoder: decoder)
        require(items.count <= max(1, text.utf8.count(where: { $0 == 10 }) + 1) + text.utf8.count / 2,
                     "\(items.count) items from a line of \(text.utf8.count) bytes")
        for case .message(let json, let key) in items {
            require(json.utf8.count + (key?.utf8.count ?? 0) <= text.utf8.count,
                         "a message larger than its line")
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...haystack.count - needle.count).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
