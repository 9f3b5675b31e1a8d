import BCMessages
import Foundation
import Testing

/// `CanonicalJSONWriter` and the generated `writeCanonicalJSON(into:)` give, byte for byte, what `JSONEncoder`
/// (`.sortedKeys`, `.withoutEscapingSlashes`) gives: `bcstream --format ndjson` prints the one in place of the
/// other.
@Suite struct CanonicalJSONWriterTests {
    static func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try CanonicalJSONWriter.encoder.encode(value), as: UTF8.self)
    }

    static func written(_ response: BCResponse) -> String {
        var writer = CanonicalJSONWriter()
        response.writeCanonicalPayloadJSON(into: &writer)
        #expect(!writer.failed)
        return writer.text
    }

    /// Every message that decodes, the lenient way `bcstream` decodes it: the valid fixtures and the invalid
    /// ones that still decode.
    static let decodable: [Fixture] = (Fixture.all + Fixture.invalid).filter { fixture in
        guard let data = try? fixture.data() else { return false }
        return (try? BCMessageDecoder().decode(data)) != nil
    }

    @Test(arguments: decodable)
    func everyFixtureIsWrittenAsJSONEncoderWritesIt(_ fixture: Fixture) throws {
        for engine in [BCMessageDecoder.Engine.fast, .foundation] {
            let response = try BCMessageDecoder(engine: engine).decode(try fixture.data())
            let written = Self.written(response), encoded = try Self.encoded(response)
            #expect(written == encoded, "\(engine)\n\(written)\n\(encoded)")
        }
    }

    @Test func theFixturesCoverMostKinds() {
        #expect(Self.decodable.count >= Fixture.all.count)
    }

    @Test func bareKindsAndUnknownKinds() throws {
        let unknown = BCResponse.unknown(.init(t: 999, json: ["t": .number("999"), "z": .null, "a": .bool(true)]))
        let bare = BCType.allCases.filter { $0.payloadTypeName == nil }.compactMap(Self.bare)
        #expect(!bare.isEmpty)
        for response in [unknown] + bare {
            #expect(Self.written(response) == (try Self.encoded(response)))
        }
    }

    @Test func theHandWrittenPayloadKeepsItsKeysAndTakesTheMessagesT() throws {
        let gift = BCResponse.EmomoQuestGift(fields: [
            "t": .number("1"), "b": .array([.number("0.25"), .string("x/y"), .object(["z": .null, "Z": .bool(false)])]),
            "a": .number("18446744073709551615"), "é": .string("\u{7F}"),
        ])
        let response = BCResponse.emomoQuestGift(gift)
        #expect(Self.written(response) == (try Self.encoded(response)))
        var writer = CanonicalJSONWriter()
        writer.appendEncoded(gift, t: 110)
        #expect(writer.text == (try Self.encoded(response)))
    }

    static func bare(_ type: BCType) -> BCResponse? {
        try? BCMessageDecoder().decode("{\"t\":\(type.rawValue)}")
    }

    static let awkwardStrings: [String] = [
        "", "plain", "quote \" and backslash \\ and slash / and //", "\u{0}\u{1}\u{7}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{E}",
        "\u{1A}\u{1B}\u{1F} space", "DEL \u{7F}", "line separators \u{2028} \u{2029}", "emoji 🐱‍👤 and 𠮷",
        "日本語の名前", "e\u{301} combining", "bidi \u{202E}reversed\u{202C}", "BOM \u{FEFF}", "replacement \u{FFFD}",
        String(decoding: [0x61, 0xED, 0xA0, 0x80, 0x62], as: UTF8.self),  // a lone surrogate, as Swift keeps it
        String(repeating: "long \u{1} ", count: 200),
    ]

    @Test(arguments: awkwardStrings)
    func stringsAreEscapedAsJSONEncoderEscapesThem(_ string: String) throws {
        var writer = CanonicalJSONWriter()
        writer.string(string)
        #expect(writer.text == (try Self.encoded(string)))
        var keyed = CanonicalJSONWriter()
        keyed.object([string: .string(string), "k": .array([.string(string), .null])])
        #expect(keyed.text == (try Self.encoded(JSONValue.object([string: .string(string), "k": .array([.string(string), .null])]))))
    }

    /// The writer skips eight bytes at a time while none needs escaping: each character that does, at every offset
    /// of a word and across multi-byte text, is escaped as JSONEncoder escapes it.
    @Test(arguments: ["\"", "\\", "\u{0}", "\n", "\u{1F}", "\t"])
    func aCharacterToEscapeAtEveryOffset(_ special: String) throws {
        for offset in 0..<20 {
            for filler in ["abcdefghijklmnopqrstuvwx", "ねこまる🍊みかん"] {
                let prefix = String(filler.prefix(offset % filler.count))
                let string = prefix + special + filler + special
                var writer = CanonicalJSONWriter()
                writer.string(string)
                #expect(writer.text == (try Self.encoded(string)), "offset \(offset)")
            }
        }
    }

    @Test func everyControlCharacter() throws {
        let controls = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
        var writer = CanonicalJSONWriter()
        writer.string(controls)
        #expect(writer.text == (try Self.encoded(controls)))
    }

    static let doubles: [Double] = [
        0, -0.0, 1, -1, 0.5, 0.1, 1.41, 100, 1234567.25, 123456789, 1e15, 1e16, 1e21, 1e22, 3.0e-7, 2.5e-5, 0.0001,
        1.7976931348623157e308, .leastNonzeroMagnitude, .leastNormalMagnitude, 9_007_199_254_740_994, -2.5e-10,
    ]

    @Test(arguments: doubles)
    func doublesAreWrittenAsJSONEncoderWritesThem(_ double: Double) throws {
        var writer = CanonicalJSONWriter()
        writer.double(double)
        #expect(writer.text == (try Self.encoded(double)))
    }

    @Test func aNonFiniteDoubleFails() {
        var writer = CanonicalJSONWriter()
        writer.double(.nan)
        #expect(writer.failed)
        #expect((try? CanonicalJSONWriter.encoder.encode(Double.nan)) == nil)
    }

    @Test(arguments: [Int.min, -1_000_000, -10, -9, -1, 0, 1, 9, 10, 99, 100, 1_049_351_080, Int.max])
    func intsAreWrittenInDecimal(_ int: Int) throws {
        var writer = CanonicalJSONWriter()
        writer.int(int)
        #expect(writer.text == (try Self.encoded(int)))
    }

    static let numbers = [
        "0", "-0", "12", "-12", "9223372036854775807", "9223372036854775808", "18446744073709551615",
        "18446744073709551616", "123456789012345678901234567890", "0.5", "1.50", "1e5", "1E+2", "-2.5e-3", "3.0e-7",
        // Around the integers copied as they are: leading zeros and signs are parsed and printed again.
        "007", "-007", "+5", "-1", "999999999999999999", "-999999999999999999", "1234567890123456789", "-00",
        // Fractions written from their Decimal, and those beyond Decimal's range from their Double.
        "0.1", "-0.0", "100.0", "0.000001", "0.30000000000000004", "3.14159265358979323846264338327950288",
        "-12.000", "12.5e+2", "-1.25e-10", "9999999999999999999999999999999999999999.1", "1e130", "1e-130",
        "1.7976931348623157e308", "5e-324",
    ]

    @Test func aCopiedWriterIsAValueEachWritesOnItsOwn() {
        var first = CanonicalJSONWriter(capacity: 1)
        first.string("shared")
        var second = first
        first.string("one")
        second.int(-1234567)
        #expect(first.text == #""shared""one""#)
        #expect(second.text == #""shared"-1234567"#)
        second.reset()  // the copy's storage is its own by now; resetting it leaves the first alone
        #expect(first.text == #""shared""one""#)
        var third = first
        third.reset()  // shared: a new buffer
        #expect(third.bytes.isEmpty && first.text == #""shared""one""#)
        first.withBytes { #expect(Array($0) == Array(#""shared""one""#.utf8)) }
    }

    @Test func aLongStringGrowsTheBufferAndTheResetWriterLetsItGo() {
        var writer = CanonicalJSONWriter(capacity: 8)
        let long = String(repeating: "\u{1}", count: 100_000)  // six bytes each, escaped
        writer.string(long)
        #expect(writer.bytes.count == 2 + 6 * 100_000)
        #expect(writer.text == "\"" + String(repeating: "\\u0001", count: 100_000) + "\"")
        writer.reset()
        writer.string("short")
        #expect(writer.text == #""short""#)
    }

    @Test func aResetWriterWritesTheNextTextFromScratch() throws {
        var writer = CanonicalJSONWriter(capacity: 4)
        writer.double(.nan)
        #expect(writer.failed)
        writer.reset()
        #expect(!writer.failed && writer.bytes.isEmpty)
        writer.bareMessage(t: 1)
        writer.reset()
        writer.key("t")  // no comma: the new text has no member before this one
        writer.int(2)
        #expect(writer.text == #""t":2"#)
    }

    @Test(arguments: numbers)
    func unknownNumbersAreWrittenAsJSONValueEncodesThem(_ digits: String) throws {
        var writer = CanonicalJSONWriter()
        writer.value(.number(digits))
        #expect(writer.text == (try Self.encoded(JSONValue.number(digits))))
    }

    /// Beyond even a Double: `JSONEncoder` refuses the infinity, and the writer says it failed (its caller then
    /// falls back to `JSONEncoder`, which reports the error).
    @Test(arguments: ["1e400", "-1e400"])
    func aNumberBeyondDoubleFailsAsJSONEncoderDoes(_ digits: String) {
        var writer = CanonicalJSONWriter()
        writer.value(.number(digits))
        #expect(writer.failed)
        #expect(throws: EncodingError.self) { try Self.encoded(JSONValue.number(digits)) }
    }

    /// The generator sorts each struct's keys with `String`'s `<`; `JSONEncoder` must agree, for every kind of
    /// key the catalogue has (lowercase, digits, `_`, capitals as in `uniMin`) and for keys `JSONValue` meets.
    @Test func keysAreSortedAsJSONEncoderSortsThem() throws {
        let keys = ["a10", "a9", "a2", "B", "a", "_", "é", "e", "A", "aB", "ab", "a_b", "a-b", "ab_", "Z", "z", "1",
                    "10", "9", "t", "u", "iurl", "uid", "u_id", "uniMin", "uni_min", "unimin", "ß", "ss", "ａ", "😀", "~",
                    "e\u{301}x", "\u{E9}a", "\u{1F}", " "]
        let object = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, JSONValue.number(String($0))) })
        var writer = CanonicalJSONWriter()
        writer.object(object)
        #expect(writer.text == (try Self.encoded(object)))
        var strings = CanonicalJSONWriter()
        let dictionary = object.mapValues { _ in "v" }
        strings.stringDictionary(dictionary)
        #expect(strings.text == (try Self.encoded(dictionary)))
    }
}
