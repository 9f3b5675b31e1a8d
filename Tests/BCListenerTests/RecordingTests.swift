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

    @Test func aBadTimeSaysWhatItExpected() {
        let line = #"{"time":"yesterday","key":"k","text":"ACK"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RecordedFrame.self, from: Data(line.utf8)) }
    }
}
