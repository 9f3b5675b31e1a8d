@testable import BCReplay
import Foundation
import Testing

/// A large recording is read in parts on every core (`RecordingParser.parseInChunks`): whatever the cuts, the
/// items and problems, their lines and offsets, must be those of reading it in one piece.
@Suite struct RecordingChunksTests {
    /// Frames, blank lines, CRLF, lines that are no frame, refused and binary frames, in a mix that repeats, so
    /// that cuts fall in every kind of place.
    static func recording(leading: [String], trailingNewline: Bool) throws -> String {
        let lines = try RecordingTests.recording().split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init) + RecordingTests.tapeLines
        var all = leading
        for round in 0..<40 {
            for (index, line) in lines.enumerated() {
                all.append((round + index) % 7 == 0 ? line + "\r" : line)
            }
        }
        return all.joined(separator: "\n") + (trailingNewline ? "\n" : "")
    }

    @Test(arguments: [
        ([], true), ([], false),
        // Lines before the first frame: offsets are measured from the first frame, wherever it is.
        (["not json", "", #"{"time":"yesterday","key":"k","text":"ACK"}"#], true),
    ] as [([String], Bool)])
    func aRecordingReadInPartsIsReadAsInOnePiece(_ leading: [String], _ trailingNewline: Bool) throws {
        let text = try Self.recording(leading: leading, trailingNewline: trailingNewline)
        let whole = RecordingParser.parse(text, file: "session.ndjson")
        #expect(whole.items.count > 100 && whole.problems.count > 100)
        var bytes = text
        for chunks in [2, 3, 5, 8, 16] {
            let parts = bytes.withUTF8 { RecordingParser.parseInChunks(bytes: $0, file: "session.ndjson", chunks: chunks) }
            #expect(parts.items == whole.items, "\(chunks) parts")
            #expect(parts.problems == whole.problems, "\(chunks) parts")
        }
    }

    /// Found by the fuzzer (Fuzz/recordings): when the line break that ends the text was the only one after a
    /// share, that share was left without a cut and the next looked up a cut that was never made, an index out
    /// of range: `replay` trapped on a recording of 4 MiB or more whose last line (a large message, say) is longer
    /// than a share, on a machine of three cores or more.
    @Test(arguments: [3, 4, 16])
    func aLastLineLongerThanASharePartsTheRestAsItCan(chunks: Int) throws {
        let long = String(repeating: "x", count: 2_000)
        let text = [
            try recordedLine("2026-11-22T02:30:11.123Z", "ACK"),
            try recordedLine("2026-11-22T02:30:11.623Z", "MSG\t118f91f:UdoBre1M\t{\"t\":23,\"online_viewer_num\":44}"),
            try recordedLine("2026-11-22T02:30:12.123Z", "MSG\t118f91f:UdoBre1M\t{\"t\":1,\"cm\":\"\(long)\"}"),
        ].joined(separator: "\n") + "\n"
        var bytes = text
        let parts = bytes.withUTF8 { RecordingParser.parseInChunks(bytes: $0, file: "r.ndjson", chunks: chunks) }
        let whole = RecordingParser.parse(text, file: "r.ndjson")
        #expect(whole.items.count == 3)
        #expect(parts == whole)
    }

    @Test(arguments: ["", "\n", "not json\n", "not json", "\n\n\n"])
    func aRecordingWithoutFramesIsReadAsInOnePiece(_ text: String) {
        var bytes = text
        let parts = bytes.withUTF8 { RecordingParser.parseInChunks(bytes: $0, file: "r.ndjson", chunks: 4) }
        #expect(parts == RecordingParser.parse(text, file: "r.ndjson"))
    }
}
