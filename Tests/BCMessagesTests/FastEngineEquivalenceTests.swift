@testable import BCMessages
import Foundation
import Testing

/// The fast engine gives what Foundation's JSONDecoder gives: the same value for every fixture, the same
/// error for every invalid message, in lenient and strict mode.
@Suite struct FastEngineEquivalenceTests {
    static func outcome(_ json: Data, mode: BCMessageDecoder.Mode,
                        engine: BCMessageDecoder.Engine) -> Result<BCResponse, BCDecodingError> {
        Result { () throws(BCDecodingError) in try BCMessageDecoder(mode: mode, engine: engine).decode(json) }
    }

    @Test(arguments: Fixture.all + Fixture.invalid, BCMessageDecoder.Mode.allCases)
    func fastEngineGivesWhatJSONDecoderGives(_ fixture: Fixture, mode: BCMessageDecoder.Mode) throws {
        let json = try fixture.data()
        let reference = Self.outcome(json, mode: mode, engine: .foundation)
        let fast = Self.outcome(json, mode: mode, engine: .fast)
        #expect(fast == reference)
    }

    @Test(arguments: Fixture.all + Fixture.invalid)
    func decodingTextGivesWhatDecodingBytesGives(_ fixture: Fixture) throws {
        let json = try fixture.data()
        let text = String(decoding: json, as: UTF8.self)
        let fromText = Result { () throws(BCDecodingError) in try BCMessageDecoder().decode(text) }
        #expect(fromText == Self.outcome(json, mode: .lenient, engine: .fast))
    }

    /// Direct extraction (the hot kinds) must build exactly what `init(from:)` builds over the same tape.
    @Test(arguments: Fixture.all)
    func directExtractionEqualsInitFromDecoder(_ fixture: Fixture) throws {
        let paths = FastEngine.bothPaths(try fixture.data())
        #expect(paths.generic != nil)
        #expect(paths.direct == paths.generic)
    }

    /// Direct extraction asks for exactly the keys `init(from:)` asks for, present or not: a key added to a
    /// payload struct but not to its `init(tape:)` fails here whether or not any fixture carries it.
    @Test(arguments: Fixture.all)
    func directExtractionReadsEveryKeyInitFromReads(_ fixture: Fixture) throws {
        let paths = FastEngine.bothPaths(try fixture.data())
        // Kinds kept whole read every key by construction (init(from:) through Dictionary, init(tape:) at once).
        switch paths.generic {
        case .unknown?, .emomoQuestGift?: return
        default: break
        }
        #expect(paths.directKeys.subtracting(paths.genericKeys).sorted() == [], "read only by init(tape:)")
        #expect(paths.genericKeys.subtracting(paths.directKeys).sorted() == [], "read only by init(from:)")
    }

    /// Every kind has direct extraction, so every valid fixture takes the direct path (and the test above
    /// compares it with init(from:)).
    @Test(arguments: Fixture.all)
    func everyFixtureTakesTheDirectPath(_ fixture: Fixture) throws {
        #expect(FastEngine.bothPaths(try fixture.data()).direct != nil)
    }

    @Test func theFoundationEngineIsStillThere() throws {
        let json = Data(#"{"t":23,"online_viewer_num":"44","total_viewer_num":120}"#.utf8)
        let expected = BCResponse.viewerCountChanged(.init(onlineViewerCount: 44, totalViewerCount: 120))
        for engine in BCMessageDecoder.Engine.allCases {
            #expect(try BCMessageDecoder(engine: engine).decode(json) == expected)
        }
        #expect(BCMessageDecoder().engine == .fast)
    }

    /// Numbers above Int64 keep every digit, however many: the fast engine hands `ForcibleString` the literal
    /// text (Foundation's engine goes through Decimal, which keeps 38 significant digits).
    @Test func idsAboveAnyIntegerTypeKeepEveryDigit() throws {
        let id = "1234567890123456789012345678901234567890123"
        let json = Data(#"{"t":1,"u":\#(id),"ac":"Taro","cm":"hi","lci":\#(id)}"#.utf8)
        guard case .comment(let comment) = try BCMessageDecoder().decode(json) else {
            Issue.record("not a comment")
            return
        }
        #expect(comment.user.id == id)
        #expect(comment.commentID == id)
    }

    /// Bytes that are not UTF-8, in values that are read and in values nobody reads.
    @Test(arguments: [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xF0, 0x90, 0x80], [0xE3, 0x81, 0x82], [0x7F], [0xC0, 0xAF]])
    func invalidUTF8DecodesAlikeOnBothEngines(_ bytes: [UInt8]) {
        let read = Array(#"{"t":1,"u":"1","ac":"a"#.utf8) + bytes + Array(#"","cm":"x","lci":"1"}"#.utf8)
        let unread = Array(#"{"t":8,"x":"a"#.utf8) + bytes + Array(#""}"#.utf8)
        let key = Array(#"{"t":8,"a"#.utf8) + bytes + Array(#"":1}"#.utf8)
        for json in [read, unread, key].map({ Data($0) }) {
            for mode in BCMessageDecoder.Mode.allCases {
                let fast = Self.outcome(json, mode: mode, engine: .fast)
                #expect(fast == Self.outcome(json, mode: mode, engine: .foundation), "\(mode): \(bytes)")
            }
        }
    }

    @Test(arguments: [
        #"{"t":1,"u":"1","ac":"a","cm":"x","lci":"1","t":2}"#,         // duplicate keys: the first wins
        #"{"\u0074":23,"online_viewer_num":1,"total_viewer_num":2}"#,  // an escaped key
        "\u{FEFF}{\"t\":8}",                                             // a byte order mark
        #"{"t":8,}"#, #"{"t":27,"a":[1,2,],}"#,                         // trailing commas
        #"{"t":8,"x":"\ud800"}"#, #"{"t":8,"x":01}"#, "{\"t\":8,\"x\":\"a\u{09}b\"}",  // bad values nobody reads
        #"{"t":23,"online_viewer_num":01,"total_viewer_num":2}"#,      // a bad value that is read
        #"{"t":23,"online_viewer_num":"\ud800","total_viewer_num":2}"#,
        #"{"t":23,"online_viewer_num":1e400,"total_viewer_num":2}"#,
        #"{"t":23,"online_viewer_num":1e-400,"total_viewer_num":2}"#,
        #"{"t":23,"online_viewer_num":2.5e1,"total_viewer_num":"+2"}"#,
        #"{"t":8,"delay":null}"#, #"{"t":34,"avatar":null}"#, #"{"t":34,"avatar":[]}"#,
        #"{"t":38,"users":[null]}"#, #"{"t":38,"users":{}}"#,
        "{\"t\":1,\"u\":\"1\",\"ac\":\"\u{212A}\",\"cm\":\"x\",\"lci\":\"1\"}",
        #"{"t":"\u0032\u0033","online_viewer_num":1,"total_viewer_num":2}"#,
        "{\"t\":8}  x", "  ", "nul", "[", "{\"t\":8", "\"t\"", "8", "true", "null",
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
    ])
    func edgeCasesDecodeAlikeOnBothEngines(_ text: String) {
        let json = Data(text.utf8)
        for mode in BCMessageDecoder.Mode.allCases {
            let fast = Self.outcome(json, mode: mode, engine: .fast)
            #expect(fast == Self.outcome(json, mode: mode, engine: .foundation), "\(mode): \(text.prefix(80))")
        }
    }

    /// The scanner reads an object's members in a loop of their own while the values are scalars, and leaves it at
    /// a container value, a closing brace or anything unexpected. Every way of writing the punctuation around the
    /// members (whitespace at each position, each byte left out, a trailing comma before each closer, a comma
    /// doubled) decodes, or fails, as Foundation decides: a message of a known kind and a message of an unknown one.
    @Test(arguments: [
        #"{"t":23,"online_viewer_num":1,"x":"a","y":true,"z":null,"w":{"v":[1,"b",false,{}]},"u":-2,"total_viewer_num":"3"}"#,
        #"{"t":999,"a":"x","b":[],"c":{"d":null,"e":[{"f":1.5}]},"g":false,"h":"\u00e9"}"#,
    ])
    func everyPunctuationAroundMembersDecodesAlikeOnBothEngines(_ text: String) {
        let bytes = Array(text.utf8)
        var variants: [[UInt8]] = []
        for position in 0...bytes.count {
            for space in [" ", "\n", "\t", "\r"] {
                variants.append(Array(bytes[..<position]) + Array(space.utf8) + Array(bytes[position...]))
            }
            if position < bytes.count {
                variants.append(Array(bytes[..<position]) + Array(bytes[(position + 1)...]))
                if bytes[position] == UInt8(ascii: "}") || bytes[position] == UInt8(ascii: "]") {
                    variants.append(Array(bytes[..<position]) + [UInt8(ascii: ",")] + Array(bytes[position...]))
                }
                if bytes[position] == UInt8(ascii: ",") {
                    variants.append(Array(bytes[..<position]) + [UInt8(ascii: ",")] + Array(bytes[position...]))
                }
            }
        }
        var decoded = 0
        for variant in variants {
            let json = Data(variant)
            let fast = Self.outcome(json, mode: .lenient, engine: .fast)
            #expect(fast == Self.outcome(json, mode: .lenient, engine: .foundation),
                    "\(String(decoding: variant, as: UTF8.self))")
            if case .success = fast { decoded += 1 }
        }
        // Both outcomes are exercised: whitespace between tokens and trailing commas decode, a left-out brace does not.
        #expect(decoded > 0 && decoded < variants.count)
    }
}
