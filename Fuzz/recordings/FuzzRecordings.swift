// The libFuzzer target of recordings, as `bcstream replay` loads them (ReplayLoader: RecordingParser over the
// file's bytes, `looksLikeRecording` for a file of another extension) and each line's RecordedFrame (BCListener).
//
// Input: the recording's bytes.
//
// Holds, for every input: no trap; no more items and problems than lines; reading it in 2, 3 or 5 parts on
// threads (`parseInChunks`, what a recording of 4 MiB or more gets; one input in eight, for speed) gives what
// reading it in one piece gives, and so does reading it from a String when it is UTF-8; each line is a
// RecordedFrame to the fast engine exactly when it is one to JSONDecoder, and the same frame (the parser takes
// the fast engine's frame and asks JSONDecoder only for its error); and the shortcut for the time as
// `listen --record` writes it (`RecordedFrame.recordedTime`) gives, when it answers, the instant Foundation's
// ISO 8601 parser gives, to the millisecond.

import Foundation
@testable import BCListener
import BCMessages
@testable import BCReplay

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzRecordings.check(Data(bytes: data, count: size))
    return 0
}

enum FuzzRecordings {
    static let fast = TapeJSONDecoder()
    static let foundation = JSONDecoder()
    static let isoFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    static func check(_ data: Data) {
        let whole = RecordingParser.parse(utf8: data, file: "r.ndjson")
        let lines = data.split(separator: 10, omittingEmptySubsequences: false)
        require(whole.items.count + whole.problems.count <= lines.count)
        // Handing parts to threads costs milliseconds (ten times the rest), so one input in eight is read in
        // parts, 2, 3 or 5 of them as its hash says.
        var hash: UInt32 = 2_166_136_261
        for byte in data { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        if hash % 8 == 0 {
            let chunks = [2, 3, 5][Int(hash / 8 % 3)]
            data.withUnsafeBytes { raw in
                let bytes = raw.assumingMemoryBound(to: UInt8.self)
                let parts = RecordingParser.parseInChunks(bytes: bytes, file: "r.ndjson", chunks: chunks)
                require(parts == whole, "read in \(chunks) parts:\n\(parts)\nin one piece:\n\(whole)")
            }
        }
        if let text = String(validating: data, as: UTF8.self) {
            require(RecordingParser.parse(text, file: "r.ndjson") == whole, "read from a String, it differs")
            _ = RecordingParser.looksLikeRecording(text)
        }
        for line in lines {
            checkFrame(line)
            checkTime(line)
        }
    }

    static func checkFrame(_ line: Data.SubSequence) {
        let data = Data(line)
        let viaTape = data.withUnsafeBytes { try? fast.decode(RecordedFrame.self, from: $0) }
        let viaFoundation = try? foundation.decode(RecordedFrame.self, from: data)
        require(viaTape == viaFoundation, """
            \(String(decoding: data, as: UTF8.self).debugDescription): the fast engine read \(String(describing: viaTape)), \
            JSONDecoder \(String(describing: viaFoundation))
            """)
    }

    /// Each `"time":"` of the line is followed by a stamp of 24 bytes in the shape `listen --record` writes.
    static func checkTime(_ line: Data.SubSequence) {
        let marker = Array(#""time":""#.utf8)
        var from = line.startIndex
        while let found = line[from...].firstRange(of: marker) {
            from = found.upperBound
            guard line.endIndex - found.upperBound >= 24,
                  let stamp = String(validating: line[found.upperBound..<found.upperBound + 24], as: UTF8.self),
                  let quick = RecordedFrame.recordedTime(stamp) else { continue }
            guard let parsed = try? isoFormat.parse(stamp) else {
                fatalError("recordedTime read \(stamp.debugDescription) as \(quick), the ISO 8601 parser refuses it")
            }
            let (a, b) = ((quick.timeIntervalSince1970 * 1000).rounded(), (parsed.timeIntervalSince1970 * 1000).rounded())
            require(a == b, "recordedTime read \(stamp.debugDescription) as \(a) ms, the ISO 8601 parser as \(b)")
        }
    }
}
