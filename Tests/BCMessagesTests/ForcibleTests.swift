import BCMessages
import Foundation
import Testing

/// Pins every rule of the Forcible wrappers: which wire forms each accepts, what it rejects, and what it writes.
@Suite struct ForcibleTests {
    private struct Box<Value: ForcibleValue>: Codable {
        @Forcible var v: Value
    }

    private struct OptionalBox<Value: ForcibleValue>: Codable {
        @Forcible var v: Value?
    }

    private func decode<Value: ForcibleValue>(_ json: String, as _: Value.Type = Value.self) throws -> Value {
        try JSONDecoder().decode(Box<Value>.self, from: Data("{\"v\":\(json)}".utf8)).v
    }

    private func encode<Value: ForcibleValue>(_ value: Value) throws -> String {
        String(decoding: try JSONEncoder().encode(Box(v: value)), as: UTF8.self)
    }

    // MARK: String

    @Test(arguments: [
        (#""abc""#, "abc"),
        (#""""#, ""),
        ("0", "0"),
        ("1331546385", "1331546385"),
        ("-42", "-42"),
        ("18446744073709551615", "18446744073709551615"),  // UInt64.max
        ("123456789012345678901234567890", "123456789012345678901234567890"),  // above any integer type
        ("1.5", "1.5"),
    ])
    func stringAcceptsStringsAndNumbersDigitForDigit(json: String, expected: String) throws {
        #expect(try decode(json, as: String.self) == expected)
    }

    @Test(arguments: ["true", "false", "null", "[1]", #"{"a":1}"#])
    func stringRejectsEverythingElse(json: String) {
        #expect(throws: DecodingError.self) { try decode(json, as: String.self) }
    }

    // MARK: Int

    @Test(arguments: [("300", 300), (#""300""#, 300), (#""-1""#, -1), ("0", 0), ("3.0", 3),
                      ("9223372036854775807", Int.max)])
    func intAcceptsNumbersAndNumericStrings(json: String, expected: Int) throws {
        #expect(try decode(json, as: Int.self) == expected)
    }

    @Test(arguments: ["true", "false", #""eight""#, #""""#, #"" 1""#, "1.5", #""1.5""#, "null",
                      "9223372036854775808", #""99999999999999999999""#, "[1]"])
    func intRejectsBoolsFractionsOverflowAndWords(json: String) {
        #expect(throws: DecodingError.self) { try decode(json, as: Int.self) }
    }

    // MARK: Double

    @Test(arguments: [("0.5", 0.5), (#""0""#, 0), (#""1.25""#, 1.25), ("3", 3), ("-2e3", -2000)])
    func doubleAcceptsNumbersAndNumericStrings(json: String, expected: Double) throws {
        #expect(try decode(json, as: Double.self) == expected)
    }

    @Test(arguments: ["true", #""nan""#, #""inf""#, #""abc""#, "null"])
    func doubleRejectsBoolsAndNonNumbers(json: String) {
        #expect(throws: DecodingError.self) { try decode(json, as: Double.self) }
    }

    // MARK: Bool

    @Test(arguments: [("true", true), ("false", false), ("1", true), ("0", false), (#""1""#, true),
                      (#""0""#, false), (#""true""#, true), (#""false""#, false)])
    func boolAcceptsFlagsInEveryForm(json: String, expected: Bool) throws {
        #expect(try decode(json, as: Bool.self) == expected)
    }

    @Test(arguments: ["2", "-1", "0.5", #""yes""#, #""""#, "null", "[]"])
    func boolRejectsOtherValues(json: String) {
        #expect(throws: DecodingError.self) { try decode(json, as: Bool.self) }
    }

    // MARK: Arrays

    @Test func arrayElementsAreEachForcible() throws {
        #expect(try decode(#"["14521944",14796465]"#, as: [Int].self) == [14521944, 14796465])
        #expect(try decode(#"["1",2]"#, as: [String].self) == ["1", "2"])
        #expect(throws: DecodingError.self) { try decode(#"[1,true]"#, as: [Int].self) }
    }

    // MARK: Optional forms

    @Test func optionalIsNilWhenAbsentOrNull() throws {
        let decoder = JSONDecoder()
        #expect(try decoder.decode(OptionalBox<Int>.self, from: Data("{}".utf8)).v == nil)
        #expect(try decoder.decode(OptionalBox<Int>.self, from: Data(#"{"v":null}"#.utf8)).v == nil)
        #expect(try decoder.decode(OptionalBox<Int>.self, from: Data(#"{"v":"7"}"#.utf8)).v == 7)
        #expect(throws: DecodingError.self) {
            try decoder.decode(OptionalBox<Int>.self, from: Data(#"{"v":"seven"}"#.utf8))
        }
    }

    @Test func nonOptionalRequiresTheKey() {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Box<Int>.self, from: Data("{}".utf8)) }
    }

    @Test func optionalNilIsLeftOutWhenEncoding() throws {
        let json = String(decoding: try JSONEncoder().encode(OptionalBox<Int>(v: nil)), as: UTF8.self)
        #expect(json == "{}")
    }

    // MARK: Canonical encoding

    @Test func encodingWritesTheCanonicalWireForm() throws {
        #expect(try encode("1049351080") == #"{"v":"1049351080"}"#)
        #expect(try encode(300) == #"{"v":300}"#)
        #expect(try encode(true) == #"{"v":1}"#)
        #expect(try encode(false) == #"{"v":0}"#)
        #expect(try encode(0.5) == #"{"v":0.5}"#)
        #expect(try encode([1, 2]) == #"{"v":[1,2]}"#)
    }

    @Test(arguments: [#""8""#, "8", #""1331546385""#, "1"])
    func decodingTheEncodingGivesTheSameValue(json: String) throws {
        let int = try decode(json, as: Int.self)
        #expect(try JSONDecoder().decode(Box<Int>.self, from: Data(try encode(int).utf8)).v == int)
        let string = try decode(json, as: String.self)
        #expect(try JSONDecoder().decode(Box<String>.self, from: Data(try encode(string).utf8)).v == string)
    }

    // MARK: Errors

    @Test func errorNamesTheKeyAndWhatCame() throws {
        let error = #expect(throws: DecodingError.self) { try decode(#""eight""#, as: Int.self) }
        guard case .typeMismatch(_, let context)? = error else {
            Issue.record("expected a typeMismatch, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["v"])
        #expect(context.debugDescription == #"Expected an integer or a numeric string, found "eight"."#)
    }
}
