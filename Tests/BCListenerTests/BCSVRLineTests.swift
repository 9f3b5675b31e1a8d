import BCListener
import Testing

@Suite struct BCSVRLineTests {
    static let key = "118f91f:UdoBre1M"

    @Test(arguments: [
        ("MSG\t118f91f:UdoBre1M\t{\"t\":8}", BCSVRLine.message(key: key, json: "{\"t\":8}")),
        ("MSG\t118f91f:UdoBre1M\t{\"cm\":\"a\tb\"}", .message(key: key, json: "{\"cm\":\"a\tb\"}")),
        ("MSG\tk\t", .message(key: "k", json: "")),
        ("ACK", .ack(nil)),
        ("ACK\tword", .ack("word")),
        ("ACK\t", .ack("")),
        ("ACK\ta\tb", .ack("a\tb")),
        ("ERR\tbad key", .error("bad key")),
        ("ERR", .error("")),
        ("ERR\tno\tsuch", .error("no\tsuch")),
        ("MSG", .unknown("MSG")),
        ("MSG\tonly-key", .unknown("MSG\tonly-key")),
        ("HELLO\tthere", .unknown("HELLO\tthere")),
        ("msg\tk\t{}", .unknown("msg\tk\t{}")),
        ("ACK\r", .ack(nil)),
    ])
    func parsesOneLine(_ text: String, _ expected: BCSVRLine) {
        #expect(BCSVRLine(text) == expected)
    }

    @Test(arguments: [
        ("ACK", ["ACK"]),
        ("ACK\n", ["ACK"]),
        ("ACK\r\n", ["ACK"]),
        ("ACK\r\nMSG\tk\t{}\r\n", ["ACK", "MSG\tk\t{}"]),
        ("\n\nACK\n\n\nERR\tx\n", ["ACK", "ERR\tx"]),
        ("ACK\n \r\n\t\nACK\tw", ["ACK", "ACK\tw"]),
        ("", []),
        ("\r\n", []),
        ("MSG\tk\t{\"c\":\"日本 🎁\"}\r\nACK\té", ["MSG\tk\t{\"c\":\"日本 🎁\"}", "ACK\té"]),
    ])
    func splitsAFrameIntoLines(_ frame: String, _ expected: [String]) {
        #expect(BCSVRLine.lines(in: frame).map(String.init) == expected)
    }

    @Test func parsesAMultiLineFrame() {
        let frame = "ACK\r\nMSG\t\(Self.key)\t{\"t\":23}\r\nERR\toops\r\nNOPE\r\n"
        #expect(BCSVRLine.parse(frame: frame) == [
            .ack(nil), .message(key: Self.key, json: "{\"t\":23}"), .error("oops"), .unknown("NOPE"),
        ])
    }

    @Test func acceptsAMessageOfTheSubscribedChannelWithAnObject() {
        #expect(BCSVRLine.message(key: Self.key, json: "{\"t\":1}").rejection(subscribedKey: Self.key) == nil)
    }

    @Test func rejectsAnotherChannel() {
        let rejection = BCSVRLine.message(key: "other:AAAAAAAA", json: "{}").rejection(subscribedKey: Self.key)
        #expect(rejection == .otherChannel(received: "other:AAAAAAAA", subscribed: Self.key))
        #expect(rejection?.description == "MSG for channel \"other:AAAAAAAA\", not the subscribed \"\(Self.key)\"")
    }

    @Test(arguments: ["[1,2]", "", " {\"t\":1}", "null", "\"{\""])
    func rejectsABodyThatIsNotAnObject(_ json: String) {
        let rejection = BCSVRLine.message(key: Self.key, json: json).rejection(subscribedKey: Self.key)
        #expect(rejection == .notAJSONObject(json))
        #expect(rejection?.description.hasPrefix("MSG body is not a JSON object") == true)
    }

    @Test(arguments: [BCSVRLine.ack(nil), .error("x"), .unknown("X")])
    func onlyMessagesAreRejected(_ line: BCSVRLine) {
        #expect(line.rejection(subscribedKey: Self.key) == nil)
    }

    @Test func describesWhatIsWrongWithAnUnknownLine() {
        #expect(BCSVRLine("HELLO\tthere").problem == "unknown command \"HELLO\" in: HELLO\\tthere")
        #expect(BCSVRLine("MSG\tk").problem == "MSG line without both a key and a JSON field: MSG\\tk")
        #expect(BCSVRLine("ACK").problem == nil)
        let long = String(repeating: "x", count: 300)
        #expect(BCSVRLine(long).problem?.hasSuffix("…") == true)
    }

    @Test func writesTheClientCommands() throws {
        #expect(BCSVRCommand.subscribe(key: try ChannelKey(Self.key)).text == "SUB\t118f91f:UdoBre1M")
        #expect(BCSVRCommand.ping.text == "PING")
    }
}
