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

    /// A comment is stored under its comment id, live or refilled from the backlog, so JetStream stores it once.
    @Test func aCommentLiveOrFromTheBacklogIsPublishedUnderItsCommentID() throws {
        let raw = #"{"t":1,"u":"100000002","ac":"Taro","cm":"hi","lci":"1331546385"}"#
        let response = try BCMessageDecoder().decode(raw)
        let at = Date(timeIntervalSince1970: 1_700_000_000)
        let maker = FleetMessageMaker(run: "run")
        let live = try #require(maker.message(for: .message(response, raw: raw, key: "k:1", receivedAt: at),
                                              key: "k:1", follow: 3, frame: 7))
        #expect(live.id == "comment-k:1-1331546385")

        let comment = BacklogComment(id: "1331546385", userID: "100000002", userName: "Taro", text: "hi",
                                     createdAt: 1_700_000_000)
        let refilled = try #require(maker.message(for: comment, key: "k:1", at: at))
        #expect(refilled.id == live.id)
        #expect(refilled.subject == "bcstream.msg.k_1.backlogComment")
        #expect(String(decoding: refilled.payload, as: UTF8.self)
            == MessageFormatter(format: .ndjson).line(for: comment, key: "k:1").dropLast()
            + #","receivedAt":"2023-11-14T22:13:20.000Z"}"#)
        let object = try object(refilled.payload)
        #expect(object["backlog"] as? Bool == true)

        // An id that cannot be a header's keeps the frame's.
        let odd = #"{"t":1,"u":"1","ac":"a","cm":"x","lci":"1 2"}"#
        let oddMessage = try #require(maker.message(for: .message(try BCMessageDecoder().decode(odd), raw: odd,
                                                                  key: "k:1", receivedAt: at),
                                                    key: "k:1", follow: 3, frame: 8))
        #expect(oddMessage.id == "run-3-8")
    }
}
