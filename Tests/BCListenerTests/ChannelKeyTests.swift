import BCListener
import BCMessages
import Foundation
import Testing

@Suite("ChannelKey: the only way to a SUB line")
struct ChannelKeyTests {
    @Test("keys the service uses are accepted and sent as they are", arguments: [
        "118f91f:UdoBre1M", "a:1", "テスト:鍵", String(repeating: "k", count: ChannelKey.maxBytes),
    ])
    func acceptsKeys(text: String) throws {
        let key = try ChannelKey(text)
        #expect(key.text == text)
        #expect(BCSVRCommand.subscribe(key: key).text == "SUB\t" + text)
    }

    /// Each of these would add a command to the SUB line, or rewrite the terminal that shows it.
    @Test("a key that would break the SUB line or a terminal cannot be made", arguments: [
        ("", ChannelKey.Problem.empty),
        ("k1\nSUB\tvictim-key", .forbiddenCharacter("\n")),
        ("k1\r\nSUB\tvictim", .forbiddenCharacter("\r")),
        ("k1\tvictim", .forbiddenCharacter("\t")),
        ("k 1", .forbiddenCharacter(" ")),
        ("k\u{A0}1", .forbiddenCharacter("\u{A0}")),
        ("k\u{1B}[2J", .forbiddenCharacter("\u{1B}")),
        ("k\u{7F}", .forbiddenCharacter("\u{7F}")),
        ("k\u{85}", .forbiddenCharacter("\u{85}")),
        ("k\u{2028}", .forbiddenCharacter("\u{2028}")),
        ("k\u{202E}1", .forbiddenCharacter("\u{202E}")),
        ("k\u{2066}1", .forbiddenCharacter("\u{2066}")),
        ("k\u{200B}1", .forbiddenCharacter("\u{200B}")),
        ("\u{FEFF}k", .forbiddenCharacter("\u{FEFF}")),
        (String(repeating: "é", count: 129), .tooLong(bytes: 258)),
    ])
    func refusesHostileKeys(text: String, problem: ChannelKey.Problem) {
        #expect(throws: problem) { try ChannelKey(text) }
        #expect(ChannelKey.problem(with: text) == problem)
    }

    @Test("the error names where the key came from and shows it escaped and bounded")
    func errorNamesTheOrigin() {
        let hostile = "k1\nSUB\tvictim-key\u{1B}[2J\u{202E}" + String(repeating: "x", count: 10_000)
        #expect {
            try ChannelKey(hostile, from: "keys.txt line 3")
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("keys.txt line 3: a key of 10024 bytes (at most 256): ")
                && text.contains(#"k1\u{A}SUB\tvictim-key\u{1B}[2J\u{202E}"#) && text.utf8.count < 600
                && !text.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{202E}" }
        }
    }

    @Test("a key decoded from JSON is checked too")
    func decodingChecks() throws {
        #expect(try JSONDecoder().decode([ChannelKey].self, from: Data(#"["a:1"]"#.utf8)) == [try ChannelKey("a:1")])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([ChannelKey].self, from: Data(#"["a:1\nSUB\tb"]"#.utf8))
        }
        #expect {
            try ChannelKey("k1\nSUB\tvictim", from: "--key")
        } throws: { "\($0)" == #"--key: a key with a line break in it (a key has no space, TAB, line break, control or format character: it would break the SUB line): "k1\u{A}SUB\tvictim""# }
        #expect(String(decoding: try JSONEncoder().encode(try ChannelKey("a:1")), as: UTF8.self) == #""a:1""#)
    }
}
