import BCConsole
@testable import BCFleet
import BCListener
import BCMessages
import Foundation
import Testing

/// The fleet's published payloads: bcstream's NDJSON line, as `--format ndjson` prints it, plus `receivedAt`.
@Suite(.timeLimit(.minutes(1))) struct FleetMessageTests {
    private func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func aMessageIsItsNDJSONLinePlusReceivedAtWithAnIDPerFrame() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Payloads/23-viewer-count-changed-44-online.json")
        let raw = try String(contentsOf: fixture, encoding: .utf8)
        let response = try BCMessageDecoder().decode(raw)
        let at = Date(timeIntervalSince1970: 1_700_000_000.25)
        let maker = FleetMessageMaker(run: "run")
        let message = try #require(maker.message(for: .message(response, raw: raw, key: "k:1", receivedAt: at),
                                                 key: "k:1", follow: 3, frame: 7))
        let line = MessageFormatter(format: .ndjson).line(for: response, raw: raw, key: "k:1")
        #expect(String(decoding: message.payload, as: UTF8.self)
            == line.dropLast() + #","receivedAt":"2023-11-14T22:13:20.250Z"}"#)
        #expect(message.subject == "bcstream.msg.k_1.\(response.kind)")
        #expect(message.id == "run-3-7")
        #expect(maker.message(for: .connected(key: "k:1"), key: "k:1", follow: 3, frame: 8) == nil)
    }

    @Test func aFrameThatDoesNotDecodeIsPublishedOnKindErrorWithItsRawText() throws {
        let raw = #"{"t":23,"online":"many"}"#
        let error = try #require(throws: BCDecodingError.self) { try BCMessageDecoder().decode(raw) }
        let maker = FleetMessageMaker(run: "run")
        for event in [BCListenerEvent.undecodable(error, raw: raw, reason: "\(error)"),
                      .undecodable(nil, raw: "MSG\tother\t{}", reason: "a MSG for another channel")] {
            let message = try #require(maker.message(for: event, key: "k:1", follow: 0, frame: 0))
            #expect(message.subject == "bcstream.msg.k_1.error")
            #expect(message.kind == FleetMessage.errorKind)
            let object = try object(message.payload)
            #expect(object["error"] is String)
            #expect(object["raw"] is String)
            #expect(object["key"] as? String == "k:1")
            #expect(object["receivedAt"] is String)
        }
    }
}
