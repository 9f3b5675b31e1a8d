@testable import BCMessages
import Foundation
import Testing

/// The Forcible rules, read by the kind of the value in the fast engine, against the same rules probed
/// through Foundation's decoder: for every JSON literal below and every value type, the same value or a
/// failure on both.
@Suite struct FastEngineScalarTests {
    private struct Box<Value: ForcibleValue>: Codable, Equatable {
        @Forcible var v: Value
    }

    private struct OptionalBox<Value: ForcibleValue>: Codable, Equatable {
        @Forcible var v: Value?
    }

    static let literals = [
        "0", "1", "-1", "2", "-0", "-0.0", "0.5", "1.0", "1.50", "3.0", "1e3", "1E3", "2.5e1", "100e-2", "0.1e1",
        "1e-2", "1e400", "-1e400", "1e-400", "4.9e-324", "2.2250738585072014e-308", "1e-310", "1.7976931348623157e308",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "123456789012345678901", "1331546385",
        "01", "-", "1.", ".5", "1.e5", "1e", "1e+", "--1", "1-2", "0x10", "+1",
        #""""#, #""0""#, #""1""#, #""2""#, #""-1""#, #""+1""#, #"" 1""#, #""1 ""#, #""1.0""#, #""1.5""#, #""1e3""#,
        #""0x10""#, #""inf""#, #""nan""#, #""1e400""#, #""00012""#, #""-0""#, #""true""#, #""false""#, #""yes""#,
        #""abc""#, #""\u0031""#, #""\ud83c\udf38""#, #""\ud800""#, #""\udc00""#, #""\x""#, #""a\/b""#,
        "\"\u{212A}\"", "\"caf\u{E9}\"", "\"tab\there\"",
        // Strings read in place, without making a String (`plainString`): signs, zeros, range ends, 15/16 digits.
        #""+""#, #""-""#, #""+0""#, #""-00""#, #""+-1""#, #""1+""#, #""9223372036854775807""#,
        #""9223372036854775808""#, #""-9223372036854775808""#, #""-9223372036854775809""#, #""123456789012345""#,
        #""-123456789012345""#, #""1234567890123456""#, #""9007199254740993""#,
        // Eighteen digits are read without overflow checks, nineteen with them (`intText`): both sides of the line.
        #""999999999999999999""#, #""-999999999999999999""#, #""+999999999999999999""#, #""1000000000000000000""#,
        #""-1000000000000000000""#, #""0000000000000000001""#, #""-000000000000000000""#, #""99999999999999999a""#,
        #""TRUE""#, #""tru""#, #""falsy""#,
        #""True""#, #""0.0""#, #""1\u0030""#, #""\u0031""#,
        // \u escapes decoded by hand: upper and lower case, each UTF-8 length, bad digits, lone and reversed pairs.
        #""\u00E9\u00e9\u00C9""#, #""\u0000""#, #""\u007F\u0080\u07FF\u0800\uFFFF""#, #""\uD83C\uDF38x""#,
        #""\u00G0""#, #""\u00:0""#, #""\u00@0""#, #""\uDC00\uD800""#, #""\uD800x""#, #""\uD800\u0041""#, #""\u12""#,
        "true", "false", "null", "[]", "[1]", #"["1",2]"#, #"[1,null]"#, #"[1,true]"#, "{}", #"{"a":"1"}"#,
        #"{"a":1,"a":2}"#, #"{"a":null}"#,
        // Fractions written plainly are taken as they are (`plainFractionText`); the others go through Decimal.
        "0.75", "-0.75", "12.5", "0.05", "0.0001", "-0.001", "123456789012.25", "0.10", "2.50", "-0.0", "0.0",
        "00.5", "-.5", "1.5e0", "0.123456789012345678901234567", "0.1234567890123456789012345678901234567891",
        "98765432109876543210.123456789",
        // Short integers are read in one pass (`shortInteger`): 18 digits and 19, leading zeros, a lone minus.
        "123456789012345678", "-123456789012345678", "999999999999999999", "1234567890123456789", "007", "-007",
        "00", "42",
    ]

    private func compare<Value: ForcibleValue & Codable>(_ type: Value.Type, _ literal: String) {
        let json = Data(#"{"v":\#(literal)}"#.utf8)
        let reference = try? JSONDecoder().decode(Box<Value>.self, from: json)
        let fast = try? FastEngine.decodeValue(Box<Value>.self, from: json)
        #expect(fast == reference, "\(Value.self) from \(literal)")
        let optionalReference = try? JSONDecoder().decode(OptionalBox<Value>.self, from: json)
        let optionalFast = try? FastEngine.decodeValue(OptionalBox<Value>.self, from: json)
        #expect(optionalFast == optionalReference, "\(Value.self)? from \(literal)")
    }

    @Test(arguments: literals)
    func everyRuleAgrees(_ literal: String) {
        compare(String.self, literal)
        compare(Int.self, literal)
        compare(Double.self, literal)
        compare(Bool.self, literal)
        compare(YellRank.self, literal)
        compare([String].self, literal)
        compare([Int].self, literal)
        compare([String: String].self, literal)
    }

    /// Unescaping copies plain bytes eight at a time: an escape, a raw control character or a byte beyond ASCII
    /// at every offset of a string longer than two words, in strings that end at every length around them, reads
    /// as Foundation reads it.
    static let specialsAtEveryOffset: [String] = {
        let specials = [#"\/"#, #"\u00e9"#, #"\uD83C\uDF38"#, #"\n"#, #"\""#, "\u{01}", "\u{1F}", "é", #"\x"#, #"\u12"#]
        var literals: [String] = []
        for special in specials {
            for offset in 0..<20 {
                for tail in [0, 1, 7, 8, 9] {
                    let text = String(repeating: "a", count: offset) + special + String(repeating: "z", count: tail)
                    literals.append("\"" + text + "\"")
                }
            }
        }
        return literals
    }()

    /// Compares each string literal with Foundation's reading; returns how many read as a string at all.
    private func compareStrings(_ literals: [String]) -> Int {
        var read = 0
        for literal in literals {
            compare(String.self, literal)
            let json = Data(#"{"v":\#(literal)}"#.utf8)
            if (try? FastEngine.decodeValue(Box<String>.self, from: json)) != nil { read += 1 }
        }
        return read
    }

    @Test func specialsAtEveryOffsetReadAsFoundationReadsThem() {
        let read = compareStrings(Self.specialsAtEveryOffset)
        // Six of the ten specials are valid escapes or text, four are not (two control characters, `\x`, a short
        // `\u`): both kinds are really exercised.
        #expect(read == Self.specialsAtEveryOffset.count * 6 / 10)
    }

    /// `bytesEqual` compares words, the last one overlapping the one before: for every length up to three words,
    /// equal bytes are equal, and one byte changed at any place is not. The bytes past `count` differ, so a compare
    /// that read beyond its count would fail too.
    @Test func bytesEqualSeesADifferenceAtEveryPlace() {
        for count in 0...24 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let left = bytes + [UInt8](repeating: 0xAA, count: 8)
            func equal(_ right: [UInt8]) -> Bool {
                left.withUnsafeBufferPointer { l in
                    right.withUnsafeBufferPointer { r in
                        TapeDocument.bytesEqual(l.baseAddress!, r.baseAddress!, count: count)
                    }
                }
            }
            #expect(equal(bytes + [UInt8](repeating: 0x55, count: 8)), "\(count) bytes")
            for place in 0..<count {
                var right = bytes + [UInt8](repeating: 0x55, count: 8)
                right[place] ^= 0x01
                #expect(!equal(right), "\(count) bytes, byte \(place) changed")
            }
        }
    }

    /// A run of `\u` escapes (Japanese text escaped) is unescaped in a loop of its own: runs of one to nine, with
    /// a surrogate pair, a lone surrogate, a bad digit or a cut escape at each place in the run, ending the string
    /// or followed by text, read as Foundation reads them.
    static let escapeRuns: [String] = {
        let units = [#"\u306d"#, #"\u0041"#, #"\u00e9"#, #"\uD83C\uDF38"#]
        let breakers = ["", #"\uD83C"#, #"\uDF38"#, #"\u30g0"#, #"\u30"#, #"\/"#, "x", #"\n"#]
        var literals: [String] = []
        for length in 1...9 {
            for (index, breaker) in breakers.enumerated() {
                for place in 0...length {
                    var run = (0..<length).map { units[($0 + index) % units.count] }
                    run.insert(breaker, at: place)
                    literals.append("\"" + run.joined() + "\"")
                    literals.append("\"ab" + run.joined() + "cd\"")
                }
            }
        }
        return literals
    }()

    @Test func escapeRunsReadAsFoundationReadsThem() {
        let read = compareStrings(Self.escapeRuns)
        #expect(read > 0 && read < Self.escapeRuns.count, "valid and invalid runs both exercised")
    }

    /// The four digits of a `\u` escape are read as one word: every byte value in every position is a hex digit
    /// exactly when it is one of `0-9a-fA-F`, with the value a digit at a time gives; and a string holding such an
    /// escape reads as Foundation reads it.
    @Test(arguments: 0..<4)
    func everyByteInEveryPositionOfAUnicodeEscapeReadsAsFoundationReadsIt(_ position: Int) throws {
        func reference(_ digits: [UInt8]) -> UInt16? {
            var value: UInt16 = 0
            for byte in digits {
                guard let digit = Character(UnicodeScalar(byte)).hexDigitValue, byte < 0x80 else { return nil }
                value = value << 4 | UInt16(digit)
            }
            return value
        }
        var accepted = 0
        for byte in 0...255 {
            var digits = Array("30aF".utf8)
            digits[position] = UInt8(byte)
            let got = digits.withUnsafeBufferPointer { TapeDocument.hexUnit($0, at: 0) }
            #expect(got == reference(digits), "byte \(byte) at \(position)")
            if got != nil { accepted += 1 }
            let json = Data(#"{"v":"x\u"#.utf8 + digits + Data(#"y"}"#.utf8))
            let fast = try? FastEngine.decodeValue([String: String].self, from: json)
            #expect(fast == (try? JSONDecoder().decode([String: String].self, from: json)), "byte \(byte) at \(position)")
        }
        #expect(accepted == 22)  // 0-9, a-f, A-F
    }

    @Test(arguments: literals)
    func jsonValuesAgree(_ literal: String) {
        let json = Data(#"{"v":\#(literal)}"#.utf8)
        let reference = try? JSONDecoder().decode([String: JSONValue].self, from: json)
        let fast = try? FastEngine.decodeValue([String: JSONValue].self, from: json)
        #expect(fast == reference, "\(literal)")
    }

    /// The primitives that code probing a container relies on succeed and fail where Foundation's do.
    @Test(arguments: literals)
    func primitivesAgree(_ literal: String) {
        struct Probe: Decodable, Equatable {
            var bool, string, int, int64, uint64, double, decimal: String
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                func attempt<T>(_ read: () throws -> T) -> String { (try? read()).map { "\($0)" } ?? "error" }
                bool = attempt { try container.decode(Bool.self) }
                string = attempt { try container.decode(String.self) }
                int = attempt { try container.decode(Int.self) }
                int64 = attempt { try container.decode(Int64.self) }
                uint64 = attempt { try container.decode(UInt64.self) }
                double = attempt { try container.decode(Double.self) }
                decimal = attempt { try container.decode(Decimal.self) }
            }
        }
        let json = Data("[\(literal)]".utf8)
        let reference = try? JSONDecoder().decode([Probe].self, from: json)
        let fast = try? FastEngine.decodeValue([Probe].self, from: json)
        #expect(fast == reference, "\(literal)")
    }
}
