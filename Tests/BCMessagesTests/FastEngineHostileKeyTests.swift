@testable import BCMessages
import Foundation
import Testing

/// Hostile keys decode in work linear in the message, and exactly as Foundation's engine decodes them: duplicate
/// keys (the first wins), keys that collide in the engine's cheap hash, many non-ASCII or escaped keys, all of
/// them in known kinds, unknown kinds, nested objects, dictionaries and on the error path. Work is counted
/// (`FastEngine.work`: every probe, key comparison and byte read), never timed.
@Suite struct FastEngineHostileKeyTests {
    typealias Linearity = FastEngineLinearityTests

    /// Both engines give equal values or equal errors, lenient and strict.
    static func expectAlike(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectAlike(Data(text.utf8), sourceLocation: sourceLocation)
    }

    /// Where Foundation's scanner would trap (see `JSONText.foundationMayTrap`), the fast engine must give the
    /// error Foundation gives for every other malformed text.
    static func expectAlike(_ json: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        let mayTrap = json.withUnsafeBytes { JSONText.foundationMayTrap($0.assumingMemoryBound(to: UInt8.self)) }
        for mode in BCMessageDecoder.Mode.allCases {
            let fast = FastEngineEquivalenceTests.outcome(json, mode: mode, engine: .fast)
            let reference = mayTrap ? .failure(malformed(json))
                : FastEngineEquivalenceTests.outcome(json, mode: mode, engine: .foundation)
            #expect(fast == reference, "\(mode): \(String(decoding: json.prefix(100), as: UTF8.self))",
                    sourceLocation: sourceLocation)
        }
    }

    static func malformed(_ json: Data) -> BCDecodingError {
        BCMessageDecoder.failure(.malformedJSON, in: json, t: nil, expected: "a JSON object",
                                 found: BCMessageDecoder.describeMalformed(json))
    }

    static func repeated(_ member: String, _ count: Int) -> String {
        Array(repeating: member, count: count).joined(separator: ",")
    }

    /// Keys of one length whose first and last eight bytes are equal: the same cheap hash for every one.
    static func collidingKey(_ index: Int) -> String {
        let digits = String(index)
        return "k_AAAAAA" + String(repeating: "0", count: 8 - digits.count) + digits + "AAAAAAAA"
    }

    /// Members enough to make any object a large one (hash-indexed rather than searched in order).
    static let padding = (0..<30).map { #""pad\#($0)":0"# }.joined(separator: ",")

    // MARK: - Duplicate keys

    @Test func duplicatesOfAModelledKey() throws {
        let message = { (n: Int) in
            #"{"t":1,"u":"first",\#(Self.repeated(#""u":"later""#, n)),"ac":"a","cm":"x","lci":"1"}"#
        }
        #expect(try Linearity.growth(message) < 2.2)
        Self.expectAlike(message(2_000))
        guard case .comment(let comment) = try BCMessageDecoder().decode(message(2_000)) else {
            Issue.record("not a comment")
            return
        }
        #expect(comment.user.id == "first")
    }

    @Test func duplicatesOfAnUnmodelledKey() throws {
        let message = { (n: Int) in
            #"{"t":1,"u":"1","ac":"a","cm":"x","lci":"1",\#(Self.repeated(#""extra":"1""#, n))}"#
        }
        #expect(try Linearity.growth(message) < 2.2)
        Self.expectAlike(message(2_000))
    }

    @Test func duplicatesInAnUnknownKind() throws {
        let message = { (n: Int) in #"{"t":999,"k":"first",\#(Self.repeated(#""k":"later""#, n))}"# }
        #expect(try Linearity.growth(message) < 2.2)
        Self.expectAlike(message(2_000))
        guard case .unknown(let unknown) = try BCMessageDecoder().decode(message(2_000)) else {
            Issue.record("not unknown")
            return
        }
        #expect(unknown.json == ["t": .number("999"), "k": .string("first")])
    }

    /// A later duplicate is as if it had not been, even when its value would fail (a lone surrogate, a bad value
    /// deep inside): the first wins and the message decodes, as in Foundation. A bad first value still fails.
    @Test(arguments: [
        #"{"t":999,"k":"first","k":"\ud800"}"#,
        #"{"t":999,"k":{"a":1},"k":{"a":"\udc00"},"z":2}"#,
        #"{"t":999,"k":[1,2],"k":[1,"\ud800"],"k":3}"#,
        #"{"t":999,"k":"\ud800","k":"later"}"#,
        #"{"t":999,"n":{"k":"first","k":"\ud800"},"k":1}"#,
    ])
    func laterDuplicatesWithBadValues(_ message: String) throws {
        Self.expectAlike(message)
        let decoded = try? BCMessageDecoder().decode(message)
        #expect((decoded != nil) == !message.contains(#""k":"\ud800","k""#))
    }

    @Test func duplicatesInNestedObjects() throws {
        let user = { (n: Int) in
            #"{"t":38,"users":[{"u":"first",\#(Self.repeated(#""u":"later""#, n)),"ac":"Hana","iurl":"","burl":""}]}"#
        }
        let avatarItem = { (n: Int) in
            #"{"t":34,"avatar":{"body":{"head":{"id":"first",\#(Self.repeated(#""id":"later""#, n))}}}}"#
        }
        let cameras = { (n: Int) in
            #"{"t":34,"avatar":{"wipe_cameras":{"0":"first",\#(Self.repeated(#""0":"later""#, n))}}}"#
        }
        #expect(try Linearity.growth(user) < 2.2)
        #expect(try Linearity.growth(avatarItem) < 2.2)
        #expect(try Linearity.growth(cameras) < 2.2)
        for message in [user, avatarItem, cameras] { Self.expectAlike(message(2_000)) }
        // A bad value at the end sends the dictionary through Dictionary's own init(from:), which asks for every key.
        let badCameras = { (n: Int) in
            #"{"t":34,"avatar":{"wipe_cameras":{"0":"first",\#(Self.repeated(#""0":"later""#, n)),"x":[]}}}"#
        }
        #expect(Linearity.failingGrowth(badCameras) < 2.2)
        Self.expectAlike(badCameras(2_000))
    }

    /// The first of duplicate keys is read once, however many duplicates follow it and however large it is.
    @Test func duplicatesOfALargeValueAreReadOnce() throws {
        let message = { (n: Int) in
            let large = "[" + Self.repeated(#""abcdefgh""#, n) + "]"
            return #"{"t":999,"a":\#(large),\#(Self.repeated(#""a":1"#, n)),"z":"\ud800"}"#
        }
        #expect(Linearity.failingGrowth(message) < 2.2)
        Self.expectAlike(message(2_000))
    }

    // MARK: - Keys matched a word at a time

    /// `init(tape:)` matches a key by its length and its bytes read eight at a time: keys that share a known
    /// key's first word, differ in its last byte, are a prefix of one or one byte longer, and known keys that end
    /// the message (where a whole word cannot be loaded) all decode as Foundation decodes them.
    @Test(arguments: [
        #"{"t":35,"u":"1","ac":"a","gift_id":"2","gift_title":"x","coins":1,"count":1,"gift_titlf":"y"}"#,
        #"{"t":35,"u":"1","ac":"a","gift_id":"2","gift_title":"x","coins":1,"count":1,"gift_titl":"y"}"#,
        #"{"t":35,"u":"1","ac":"a","gift_id":"2","gift_title":"x","coins":1,"count":1,"gift_title_":"y"}"#,
        #"{"t":35,"u":"1","ac":"a","gift_id":"2","gift_titlf":"x","coins":1,"count":1}"#,
        #"{"t":35,"u":"1","ac":"a","gift_id":"2","gift_title":"x","coins":1,"gift_type":0,"count":"3"}"#,
        #"{"t":1,"ac":"a","cm":"x","lci":"1","u":"9"}"#,
        #"{"t":1,"ac":"a","cm":"x","lci":"1","v":"9"}"#,
        #"{"u":"9","ac":"a","cm":"x","lci":"1","t":1}"#,
        #"{"ac":"a","cm":"x","lci":"1","u":"9","t":1,"t":35}"#,
        #"{"t":1,"u":"9","ac":"a","cm":"x","lc":"1"}"#,
        #"{"t":1,"u":"9","ac":"a","cm":"x","lci":"1","\u0075":"2"}"#,
        #"{"t":1,"u":"9","ac":"a","cm":"x","lci":"1","ü":"2"}"#,
    ])
    func keysDifferingAnywhereFromAKnownKey(_ message: String) throws {
        Self.expectAlike(message)
    }

    /// A kind read without its members (a bare kind) still has its keys checked: an object whose key is not
    /// valid UTF-8 is one Foundation cannot open. (The fuzzer found t=69 decoding where Foundation fails.)
    @Test func aBareKindWithAKeyThatIsNotTextDecodesAlike() throws {
        let invalid = Data(#"{"t":69,"is_conne/ted_strea"#.utf8) + Data([0xBA])
            + Data(#"ming_collab":"0"}"#.utf8)
        Self.expectAlike(invalid)
        Self.expectAlike(#"{"t":69,"tx":"0"}"#)
        Self.expectAlike(#"{"t":69,"ü":"0"}"#)
        Self.expectAlike(#"{"t":1,"t":69}"#)
        Self.expectAlike(#"{"t":69,"t":1}"#)
    }

    /// `u":"9"}` is seven bytes: the key's word is read byte by byte, never past the message.
    @Test func aKnownKeyEndsTheMessage() throws {
        let message = #"{"t":1,"ac":"a","cm":"x","lci":"1","u":"9"}"#
        guard case .comment(let comment) = try BCMessageDecoder().decode(message) else {
            Issue.record("not a comment")
            return
        }
        #expect(comment.user.id == "9")
        #expect(comment.commentID == "1")
    }

    // MARK: - Keys that collide in the cheap hash

    @Test func keysWithOneCheapHash() throws {
        #expect(Self.collidingKey(1).utf8.count == Self.collidingKey(12_345).utf8.count)
        let unknown = { (n: Int) in
            #"{"t":999,\#((0..<n).map { #""\#(Self.collidingKey($0))":\#($0)"# }.joined(separator: ","))}"#
        }
        let extras = { (n: Int) in
            let extras = (0..<n).map { #""\#(Self.collidingKey($0))":"\#($0)""# }.joined(separator: ",")
            return #"{"t":1,\#(extras),"u":"1","ac":"a","cm":"x","lci":"1"}"#
        }
        let badCameras = { (n: Int) in
            let cameras = (0..<n).map { #""\#(Self.collidingKey($0))":"orth""# }.joined(separator: ",")
            return #"{"t":34,"avatar":{"wipe_cameras":{\#(cameras),"x":[]}}}"#
        }
        #expect(try Linearity.growth(unknown) < 2.2)
        #expect(try Linearity.growth(extras) < 2.2)
        #expect(Linearity.failingGrowth(badCameras) < 2.2)
        for message in [unknown, extras, badCameras] { Self.expectAlike(message(2_000)) }
        // Colliding keys and duplicates of them: still the first wins.
        let duplicated = #"{"t":999,\#((0..<100).map { #""\#(Self.collidingKey($0 % 50))":\#($0)"# }.joined(separator: ","))}"#
        Self.expectAlike(duplicated)
        guard case .unknown(let decoded) = try BCMessageDecoder().decode(duplicated) else {
            Issue.record("not unknown")
            return
        }
        #expect(decoded.json[Self.collidingKey(7)] == .number("7"))
    }

    // MARK: - Non-ASCII and escaped keys

    @Test(arguments: ["ü", #"\u00fc"#, #"\u0041"#])
    func manySlowKeys(_ prefix: String) throws {
        // A known kind looks up each of its keys among them.
        let extras = { (n: Int) in
            let extras = (0..<n).map { #""\#(prefix)\#($0)":"\#($0)""# }.joined(separator: ",")
            return #"{"t":1,\#(extras),"u":"1","ac":"a","cm":"x","lci":"1"}"#
        }
        // An unknown kind with an unreadable value goes through [String: JSONValue]'s init(from:): every key.
        let unknown = { (n: Int) in
            #"{"t":999,\#((0..<n).map { #""\#(prefix)\#($0)":\#($0)"# }.joined(separator: ",")),"z":"\ud800"}"#
        }
        let badCameras = { (n: Int) in
            let cameras = (0..<n).map { #""\#(prefix)\#($0)":"orth""# }.joined(separator: ",")
            return #"{"t":34,"avatar":{"wipe_cameras":{\#(cameras),"x":[]}}}"#
        }
        #expect(try Linearity.growth(extras) < 2.2)
        #expect(Linearity.failingGrowth(unknown) < 2.2)
        #expect(Linearity.failingGrowth(badCameras) < 2.2)
        for message in [extras, unknown, badCameras] { Self.expectAlike(message(2_000)) }
    }

    /// Keys compare as Swift Strings: an escaped key equals its plain form, a decomposed key its precomposed
    /// form, the Kelvin sign the letter K; among equal keys the first in the message wins. In small objects
    /// (searched in order) and large ones (hash-indexed), on the direct path and through `init(from:)`.
    @Test(arguments: [false, true])
    func equalKeysSpelledDifferently(large: Bool) throws {
        let pad = large ? Self.padding + "," : ""
        let messages = [
            #"{\#(pad)"\u0074":23,"t":1,"online_viewer_num":1,"total_viewer_num":2}"#,
            #"{\#(pad)"t":23,"online_viewer_num":1,"online_viewer_nu\u006d":5,"total_viewer_num":2}"#,
            #"{\#(pad)"t":23,"online_viewer_nu\u006d":5,"online_viewer_num":1,"total_viewer_num":2}"#,
            #"{\#(pad)"t":1,"u":"1","ac":"a","cm":"x","lci":"1","\u0075":"2","u":"3"}"#,
            "{\(pad)\"t\":34,\"avatar\":{\(pad)\"wipe_cameras\":{\(pad)\"K\":\"a\",\"\u{212A}\":\"b\",\"e\u{301}\":\"c\",\"\u{E9}\":\"d\"}}}",
            "{\(pad)\"t\":34,\"avatar\":{\"wipe_cameras\":{\(pad)\"\u{212A}\":\"b\",\"K\":\"a\",\"\u{E9}\":\"d\",\"e\u{301}\":\"c\",\"x\":[]}}}",
            "{\(pad)\"t\":999,\"\u{E9}\":1,\"e\u{301}\":2,\"\\u00e9\":3,\"K\":4,\"\u{212A}\":5}",
            "{\(pad)\"t\":999,\"\u{E9}\":1,\"e\u{301}\":2,\"\\u00e9\":3,\"K\":4,\"\u{212A}\":5,\"z\":\"\\ud800\"}",
            "{\(pad)\"t\":999,\"\u{212A}\":[1,2],\"K\":4,\"z\":[\"\\ud800\"]}",
        ]
        for message in messages { Self.expectAlike(message) }
    }

    /// Of several bad values of a dictionary, the fast engine reports the first in the message. JSONDecoder
    /// reports the one its `Dictionary` of members happens to give first, which depends on hash seeds: the same
    /// failure, maybe about another value (the fuzzer excuses exactly that).
    @Test func aDictionaryWithTwoBadValuesReportsTheFirst() throws {
        let json = Data(#"{"t":34,"avatar":{"wipe_cameras":{"0":"a","y":[],"x":[]}}}"#.utf8)
        for mode in BCMessageDecoder.Mode.allCases {
            guard case .failure(let fast) = FastEngineEquivalenceTests.outcome(json, mode: mode, engine: .fast),
                  case .failure(let foundation) = FastEngineEquivalenceTests.outcome(json, mode: mode, engine: .foundation)
            else {
                Issue.record("both engines must fail")
                continue
            }
            #expect(fast.keyPath == "avatar.wipe_cameras.y")
            #expect(["avatar.wipe_cameras.y", "avatar.wipe_cameras.x"].contains(foundation.keyPath))
            #expect(fast.reason == foundation.reason && fast.t == foundation.t && fast.excerpt == foundation.excerpt)
        }
    }

    // MARK: - Numbers

    private struct ForcedString: Codable, Equatable { @Forcible var v: String }
    private struct ForcedInt: Codable, Equatable { @Forcible var v: Int }

    /// From 2^53 up JSONDecoder reads an integer written with a fraction or an exponent as Decimal, truncated,
    /// not as the Double (found by the fuzzer: `12345678901234567890.123…` was the integer 12345678901234567168
    /// to the fast engine, and no integer to JSONDecoder, whose Decimal digits overflow UInt64).
    @Test(arguments: [
        "9007199254740992.0", "9007199254740993.0", "9007199254740993.5", "-9007199254740993.5", "9007199254740993e0",
        "90071992547409931e-1", "4503599627370497.5", "123456789012345678.9", "1e18", "1e19", "1.5e19", "2e19",
        "1.8446744073709551615e19", "18446744073709551615.0", "18446744073709551616.0", "9.223372036854775807e18",
        "9223372036854775807.5", "-9223372036854775808.0", "-9.223372036854775808e18", "-9223372036854775809.0",
        "12345678901234567890.1234523456789012345678901234567890123456", "1e-400", "-0.0", "-1.5e3",
    ])
    func integersBeyondTwoToThe53DecodeAlike(_ literal: String) throws {
        func compare<T: Decodable & Equatable>(_ type: T.Type) {
            let json = Data("[\(literal)]".utf8)
            let reference = try? JSONDecoder().decode([T].self, from: json)
            let fast = try? FastEngine.decodeValue([T].self, from: json)
            #expect(fast == reference, "\(T.self) from \(literal)")
        }
        compare(Int.self)
        compare(Int64.self)
        compare(UInt64.self)
        compare(UInt.self)
        compare(Int32.self)
        compare(Int8.self)
        func compareForced<T: Decodable & Equatable>(_ type: T.Type) {
            let json = Data(#"{"v":\#(literal)}"#.utf8)
            let reference = try? JSONDecoder().decode(T.self, from: json)
            let fast = try? FastEngine.decodeValue(T.self, from: json)
            #expect(fast == reference, "\(T.self) from \(literal)")
        }
        compareForced(ForcedString.self)
        compareForced(ForcedInt.self)
        Self.expectAlike(#"{"t":1,"u":\#(literal),"ac":"Taro","cm":\#(literal),"lci":\#(literal)}"#)
        Self.expectAlike(#"{"t":23,"online_viewer_num":\#(literal),"total_viewer_num":1}"#)
    }

    /// JSONDecoder's test for a zero that underflowed reads a number's last `count % 4` bytes backwards, so
    /// `0e1` is no Double to it (found by the fuzzer); the fast engine agrees, wherever a Double is read.
    @Test(arguments: ["0e1", "0E1", "0e0", "-0e1", "0e-1", "0.0e1", "0.00e1", "0.000e1", "0.00e0", "0.0000e1", "00e1",
                      "1e-400", "0.001e-400", "0.00000000e12", "0e123"])
    func zerosWithExponentsDecodeAlike(_ literal: String) throws {
        func compare<T: Decodable & Equatable>(_ type: T.Type, _ json: String) {
            let reference = try? JSONDecoder().decode(T.self, from: Data(json.utf8))
            let fast = try? FastEngine.decodeValue(T.self, from: Data(json.utf8))
            #expect(fast == reference, "\(T.self) from \(json)")
        }
        compare([Double].self, "[\(literal)]")
        compare([Float].self, "[\(literal)]")
        compare([Int].self, "[\(literal)]")
        compare([JSONValue].self, "[\(literal)]")
        compare(ForcedString.self, #"{"v":\#(literal)}"#)
        compare(ForcedInt.self, #"{"v":\#(literal)}"#)
        Self.expectAlike(literal)
        Self.expectAlike(#"{"t":999,"x":\#(literal)}"#)
        Self.expectAlike(#"{"t":35,"u":"1","ac":"a","gift_id":"2","gift_title":"x","coins":1,"count":1,"pause_duration":\#(literal)}"#)
    }

    // MARK: - Direct bounds

    /// A message of a megabyte of hostile keys takes work within a small multiple of its size.
    @Test func aMegabyteOfHostileKeysTakesLinearWork() throws {
        let megabyte = 1 << 20
        let duplicates = #"{"t":1,"u":"1",\#(Self.repeated(#""u":"1""#, megabyte / 8)),"ac":"a","cm":"x","lci":"1"}"#
        let unknown = #"{"t":999,\#(Self.repeated(#""k":1"#, megabyte / 6))}"#
        let colliding = #"{"t":999,\#((0..<megabyte / 28).map { #""\#(Self.collidingKey($0))":1"# }.joined(separator: ","))}"#
        for message in [duplicates, unknown, colliding] {
            let json = Data(message.utf8)
            #expect(json.count >= megabyte)
            let work = FastEngine.work(decoding: json)
            #expect(work < 20 * json.count, "work \(work) for \(json.count) bytes: \(message.prefix(40))")
        }
        let decoded = try BCMessageDecoder().decode(duplicates)
        #expect(decoded == (try BCMessageDecoder(engine: .foundation).decode(duplicates)))
    }

    // MARK: - Nesting

    /// Nesting deeper than 512 containers is malformed JSON to both engines (JSONDecoder's own limit), and
    /// no depth overflows the stack.
    @Test(arguments: [510, 511, 512, 513, 100_000])
    func deepNestingDecodesAlike(_ depth: Int) throws {
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        for inner in [arrays, objects] {
            Self.expectAlike(#"{"t":999,"x":\#(inner)}"#)
            Self.expectAlike(inner)
        }
        let unclosed = String(repeating: "[", count: depth)
        Self.expectAlike(unclosed)
        #expect(FastEngine.work(decoding: Data(unclosed.utf8)) == 0)
    }

    /// Foundation's scanner traps when the text ends with the `[` that opens the 513th nested container. The fast
    /// engine reads every encoding itself and says such a text is malformed, as Foundation says of any other.
    @Test func textThatWouldTrapFoundationIsMalformed() throws {
        let opener = UInt8(ascii: "["), depth = TapeScanner.maximumDepth + 1
        let texts: [[UInt8]] = [
            Array(repeating: opener, count: depth),                                     // UTF-8
            [0xEF, 0xBB, 0xBF] + Array(repeating: opener, count: depth),                // UTF-8 with a BOM
            Array(#"{"t":999,"x":"#.utf8) + Array(repeating: opener, count: depth - 1), // inside a message
            Array(repeating: [opener, 0], count: depth).flatMap { $0 },                 // UTF-16LE
            Array(repeating: [opener, 0], count: depth).flatMap { $0 } + [0x20],        // … and half a unit
            [0xFF, 0xFE] + Array(repeating: [opener, 0], count: depth).flatMap { $0 },  // UTF-16LE with a BOM
            Array(repeating: [0, opener], count: depth).flatMap { $0 },                 // UTF-16BE
            Array(repeating: [0, 0, 0, opener], count: depth).flatMap { $0 },           // UTF-32BE
            Array(repeating: [opener, 0, 0, 0], count: depth).flatMap { $0 } + [0],     // UTF-32LE, a partial unit
        ]
        for text in texts {
            let json = Data(text)
            #expect(json.withUnsafeBytes { JSONText.foundationMayTrap($0.assumingMemoryBound(to: UInt8.self)) })
            for mode in BCMessageDecoder.Mode.allCases {
                let fast = FastEngineEquivalenceTests.outcome(json, mode: mode, engine: .fast)
                #expect(fast == .failure(Self.malformed(json)))
            }
        }
        // One `[` fewer, or anything after the last one, and Foundation throws as usual: both engines agree.
        let safe: [[UInt8]] = [
            Array(repeating: opener, count: depth - 1), Array(repeating: opener, count: depth) + [0x20],
            Array(repeating: [opener, 0], count: depth - 1).flatMap { $0 },
            Array(repeating: [opener, 0], count: depth).flatMap { $0 } + [0x20, 0],
            Array(repeating: [0, opener], count: depth + 1).flatMap { $0 } + [0, UInt8(ascii: "{")],
        ]
        for text in safe {
            let json = Data(text)
            #expect(!json.withUnsafeBytes { JSONText.foundationMayTrap($0.assumingMemoryBound(to: UInt8.self)) })
            Self.expectAlike(json)
        }
    }

    // MARK: - Other encodings

    static func utf16(_ text: String, bigEndian: Bool, byteOrderMark: Bool = false) -> [UInt8] {
        let units = (byteOrderMark ? [0xFEFF] : []) + Array(text.utf16)
        return units.flatMap { unit in
            bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
    }

    static func utf32(_ text: String, bigEndian: Bool, byteOrderMark: Bool = false) -> [UInt8] {
        let scalars = (byteOrderMark ? [0xFEFF] : []) + text.unicodeScalars.map(\.value)
        return scalars.flatMap { scalar in
            let bytes = (0..<4).map { UInt8(truncatingIfNeeded: scalar >> (8 * $0)) }
            return bigEndian ? bytes.reversed() : bytes
        }
    }

    /// UTF-16 and UTF-32 are transcoded as JSONDecoder transcodes them (the same detection, the same
    /// `String(bytes:encoding:)`), then read by the fast engine: the Foundation engine's values and errors.
    @Test func otherEncodingsDecodeAlike() throws {
        let texts = [
            #"{"t":1,"u":"1","ac":"さくら🌸","cm":"こんばんは","lci":"1"}"#,
            #"{"t":23,"online_viewer_num":"44","total_viewer_num":120,"t":1}"#,
            #"{"t":1,"u":"1","ac":"a","cm":"\ud800","lci":"1"}"#,
            #"{"t":999,"x":[[[[1,{"a":null}]]]],"y":123456789012345678901234567890123456}"#,
            #"{"t":34,"avatar":{"wipe_cameras":{"0":"a","0":"b","x":[]}}}"#,
            #"{"t":1,"u":"1","ac":"Ta"#, "\u{FEFF}{\"t\":8}", "8", "", " ",
        ]
        for text in texts {
            for bigEndian in [false, true] {
                for byteOrderMark in [false, true] {
                    let utf16 = Self.utf16(text, bigEndian: bigEndian, byteOrderMark: byteOrderMark)
                    let utf32 = Self.utf32(text, bigEndian: bigEndian, byteOrderMark: byteOrderMark)
                    for bytes in [utf16, utf16 + [0x20], utf16.dropLast(), utf32, utf32 + [0, 0]] {
                        Self.expectAlike(Data(bytes))
                    }
                }
            }
        }
        // A lone surrogate code unit, which no conversion accepts, and a character beyond U+10FFFF.
        Self.expectAlike(Data([0x7B, 0, 0x22, 0, 0x00, 0xD8, 0x22, 0, 0x7D, 0]))
        Self.expectAlike(Data([0x7B, 0, 0, 0, 0x00, 0x00, 0x11, 0x00, 0x7D, 0, 0, 0]))
    }

    /// The fast engine reads UTF-16 itself, in work linear in the message however deep it nests.
    @Test func deepUTF16StaysLinear() throws {
        let message = { (depth: Int) in
            Data(Self.utf16(#"{"t":999,"x":\#(String(repeating: "[", count: depth))1\#(String(repeating: "]", count: depth))}"#,
                            bigEndian: false))
        }
        let small = message(200), large = message(400)
        #expect(FastEngine.work(decoding: small) > 0)
        #expect(throws: Never.self) { try BCMessageDecoder().decode(large) }
        Self.expectAlike(large)
        let growth = Double(large.count + FastEngine.work(decoding: large))
            / Double(small.count + FastEngine.work(decoding: small))
        #expect(growth < 2.2)
    }

    /// An unreadable value deep inside nested arrays fails each array around it: the error is built once, not
    /// once per level.
    @Test func anErrorDeepInNestedArraysStaysLinear() throws {
        let message = { (depth: Int) in
            #"{"t":999,"a":\#(String(repeating: "[", count: depth))"\ud800"\#(String(repeating: "]", count: depth))}"#
        }
        let small = Data(message(200).utf8), large = Data(message(400).utf8)
        #expect(throws: BCDecodingError.self) { try BCMessageDecoder().decode(large) }
        Self.expectAlike(message(400))
        let growth = Double(large.count + FastEngine.work(decoding: large))
            / Double(small.count + FastEngine.work(decoding: small))
        #expect(growth < 2.2)
    }
}
