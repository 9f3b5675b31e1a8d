import BCListener
import Foundation
import Testing

@Suite struct RecordingTests {
    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("bcstream-\(UUID().uuidString).ndjson").path
    }

    @Test func everyFrameIsOnDiskAsSoonAsItIsRecorded() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try FrameRecorder(path: path)
        let frames = [
            RecordedFrame(time: Date(timeIntervalSince1970: 1_700_000_000.125), key: "k:1", text: "ACK"),
            RecordedFrame(time: Date(timeIntervalSince1970: 1_700_000_001.5), key: "k:1",
                          text: "MSG\tk:1\t{\"t\":1,\"cm\":\"\\uD83C\\uDF38 \\/ tab\\there\"}"),
            RecordedFrame(time: Date(timeIntervalSince1970: 1_700_000_002), key: "k:1", text: "{not json"),
        ]
        for (index, frame) in frames.enumerated() {
            try recorder.record(frame)
            // Read back while the recorder is still open: nothing waits in a buffer.
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == index + 1)
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let decoded = try lines.map { try JSONDecoder().decode(RecordedFrame.self, from: Data($0.utf8)) }
        #expect(decoded.map(\.text) == frames.map(\.text), "the exact text of every frame, undecodable included")
        #expect(zip(decoded, frames).allSatisfy { abs($0.time.timeIntervalSince($1.time)) < 0.001 })
        #expect(lines[0].contains("\"time\":\"2023-11-14T22:13:20.125Z\""))
    }

    @Test func recordingAppendsToAnExistingFile() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let frame = RecordedFrame(time: Date(), key: "k", text: "ACK")
        try FrameRecorder(path: path).record(frame)
        try FrameRecorder(path: path).record(frame)
        #expect(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count == 2)
    }

    /// The recorded time is read without the ISO 8601 parser when it has the shape `listen --record` writes; the
    /// date must be the parser's to the millisecond, and any stamp it does not take is left to the parser.
    @Test(arguments: [
        "2026-11-22T02:30:11.123Z", "1970-01-01T00:00:00.000Z", "2024-02-29T23:59:59.999Z", "2000-02-29T12:00:00.500Z",
        "2100-03-01T00:00:00.001Z", "2026-12-31T23:59:59.000Z", "9999-12-31T23:59:59.999Z", "2023-11-14T22:13:20.125Z",
        // Not taken by the fast path: the parser decides (or refuses).
        "2025-02-29T00:00:00.000Z", "2026-13-01T00:00:00.000Z", "2026-11-22T24:00:00.000Z", "2026-11-22T02:30:60.000Z",
        "1969-12-31T23:59:59.999Z", "2026-11-22T02:30:11Z", "2026-11-22T02:30:11.123+09:00", "2026-11-22 02:30:11.123Z",
        "2026-11-22T02:30:11.12XZ",
    ])
    func recordedTimesReadAsTheParserReadsThem(stamp: String) throws {
        let line = #"{"key":"k","text":"ACK","time":"\#(stamp)"}"#
        let parser = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let reference = (try? parser.parse(stamp)) ?? (try? Date.ISO8601FormatStyle().parse(stamp))
        let frame = try? JSONDecoder().decode(RecordedFrame.self, from: Data(line.utf8))
        #expect((frame == nil) == (reference == nil), "read alike: \(stamp)")
        if let frame, let reference {
            #expect(abs(frame.time.timeIntervalSince(reference)) < 0.000_001, "\(frame.time) vs \(reference)")
        }
    }

    @Test func aBadTimeSaysWhatItExpected() {
        let line = #"{"time":"yesterday","key":"k","text":"ACK"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RecordedFrame.self, from: Data(line.utf8)) }
    }

    @Test("a binary frame and a refused message keep their exact bytes, marked, and read back the same")
    func bytesFramesRoundTrip() throws {
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        let binary = RecordedFrame(time: time, key: "k", content: .bytes([0, 1, 2, 0xFF]), binary: true)
        let refused = RecordedFrame(time: time, key: "k", content: .bytes([0x4D, 0x53, 0x47, 0xC3]),
                                    refused: "larger than 3 bytes (closed with 1009)", size: 2_000_000)
        #expect(try binary.line() == #"{"binary":true,"bytes":"AAEC/w==","key":"k","time":"2023-11-14T22:13:20.000Z"}"#)
        #expect(try refused.line() == #"{"bytes":"TVNHww==","key":"k","refused":"larger than 3 bytes (closed with 1009)","size":2000000,"time":"2023-11-14T22:13:20.000Z","truncated":true}"#)
        for frame in [binary, refused] {
            let back = try JSONDecoder().decode(RecordedFrame.self, from: Data(try frame.line().utf8))
            #expect(back.bytes == frame.bytes)
            #expect(back.binary == frame.binary && back.refused == frame.refused && back.size == frame.size)
        }
        #expect(refused.truncated && !binary.truncated)
    }
}
