import BCReplay
import Testing

@Suite struct ReplayItemTests {
    static let recordedKey = "118f91f:UdoBre1M"
    static let subscriberKey = "abc123:ReplayMe"

    static func recorded(_ text: String) -> ReplayItem {
        ReplayItem(content: .recordedFrame(text: text, recordedKey: recordedKey, offset: .zero),
                   location: ReplaySourceLocation(file: "session.ndjson", line: 1))
    }

    @Test func aFixtureIsSentAsAMessageOfTheSubscribersKeyWithItsJSONUntouched() {
        let json = #"{"t":1,"cm":"\ud83c\udf38 \/ tab\there","u":"1"}"#
        let item = ReplayItem.fixture(name: "1-comment-x", json: json, file: "Tests/Payloads/1-comment-x.json")
        #expect(item.frame(for: Self.subscriberKey) == "MSG\t\(Self.subscriberKey)\t\(json)")
        #expect(item.text == json)
        #expect(item.fixtureName == "1-comment-x")
        #expect(item.offset == nil)
        #expect(item.location.description == "Tests/Payloads/1-comment-x.json:1")
    }

    @Test func theBytesSentAreTheFramesUTF8() {
        let fixture = ReplayItem.fixture(name: "1-comment-x", json: #"{"t":1,"cm":"é 🌸"}"#, file: "x.json")
        let recorded = Self.recorded("ACK\nMSG\t118f91f:UdoBre1M\t{\"t\":23}\n")
        let lone = Self.recorded("ACK")
        let binary = ReplayItem(content: .recordedBinary(bytes: [0, 1, 2], offset: .zero),
                                location: ReplaySourceLocation(file: "session.ndjson", line: 2))
        #expect(fixture.frameUTF8(for: "k") == Array("MSG\tk\t{\"t\":1,\"cm\":\"é 🌸\"}".utf8))
        #expect(recorded.frameUTF8(for: "k") == Array("MSG\tk\t{\"t\":23}\n".utf8), "re-keyed, the ACK dropped")
        #expect(lone.frameUTF8(for: "k") == nil, "nothing left to send")
        #expect(binary.frameUTF8(for: "k") == nil, "sent as a binary frame (binaryFrame), not as text")
        #expect(binary.binaryFrame == [0, 1, 2])
    }

    @Test(arguments: [
        // A message of the recorded channel: re-keyed, JSON bytes as recorded.
        ("MSG\t118f91f:UdoBre1M\t{\"t\":23,\"online_viewer_num\":\"44\"}",
         "MSG\tabc123:ReplayMe\t{\"t\":23,\"online_viewer_num\":\"44\"}"),
        // A TAB inside the JSON stays.
        ("MSG\t118f91f:UdoBre1M\t{\"cm\":\"a\tb\"}", "MSG\tabc123:ReplayMe\t{\"cm\":\"a\tb\"}"),
        // What the server sent, even when no client could decode it.
        ("MSG\t118f91f:UdoBre1M\t{\"t\":35,\"count\":", "MSG\tabc123:ReplayMe\t{\"t\":35,\"count\":"),
        ("MSG\t118f91f:UdoBre1M\t[1,2]", "MSG\tabc123:ReplayMe\t[1,2]"),
        // Another channel's stray message: as recorded, so the subscriber sees what the recorder saw.
        ("MSG\tother:AAAAAAAA\t{\"t\":8}", "MSG\tother:AAAAAAAA\t{\"t\":8}"),
        // A key that merely starts like the recorded one is another channel.
        ("MSG\t118f91f:UdoBre1Mx\t{}", "MSG\t118f91f:UdoBre1Mx\t{}"),
        // Unknown lines and a MSG without its fields: as recorded.
        ("HELLO\tthere", "HELLO\tthere"),
        ("MSG\t118f91f:UdoBre1M", "MSG\t118f91f:UdoBre1M"),
        // Several lines: the answers to the recorder dropped, every other byte kept, \r\n included.
        ("ACK\r\nMSG\t118f91f:UdoBre1M\t{\"t\":1}\r\nERR\toops\r\nMSG\t118f91f:UdoBre1M\t{\"t\":8}\r\n",
         "MSG\tabc123:ReplayMe\t{\"t\":1}\r\nMSG\tabc123:ReplayMe\t{\"t\":8}\r\n"),
        ("MSG\t118f91f:UdoBre1M\t{\"cm\":\"🌸\"}\nACK", "MSG\tabc123:ReplayMe\t{\"cm\":\"🌸\"}\n"),
        // One line ending in \r, or in \n: the line break stays as recorded.
        ("MSG\t118f91f:UdoBre1M\t{}\r", "MSG\tabc123:ReplayMe\t{}\r"),
        ("MSG\t118f91f:UdoBre1M\t{}\n", "MSG\tabc123:ReplayMe\t{}\n"),
        // The recorded key with nothing after its TAB: an empty body, re-keyed.
        ("MSG\t118f91f:UdoBre1M\t", "MSG\tabc123:ReplayMe\t"),
    ])
    func aRecordedFrameIsRekeyedLineByLine(_ text: String, _ expected: String) {
        #expect(Self.recorded(text).frame(for: Self.subscriberKey) == expected)
        // The bytes sent take a shortcut for a frame of one MSG line: they must be the same.
        #expect(Self.recorded(text).frameUTF8(for: Self.subscriberKey) == Array(expected.utf8))
        #expect(Self.recorded(text).text == text, "the stored text stays as recorded")
    }

    @Test(arguments: ["ACK", "ACK\tword", "ACK\r\n", "ERR\tbad key", "ERR", "ACK\nERR\tx\n", "\n", ""])
    func theAnswersToTheRecordersOwnCommandsAreNotReplayed(_ text: String) {
        #expect(Self.recorded(text).frame(for: Self.subscriberKey) == nil)
        #expect(Self.recorded(text).frameUTF8(for: Self.subscriberKey) == nil)
    }

    @Test func theSameKeyGivesTheFrameBackExactly() {
        let text = "MSG\t118f91f:UdoBre1M\t{\"t\":1}\r\n\r\nHELLO\n"
        #expect(Self.recorded(text).frame(for: Self.recordedKey) == text)
    }
}
