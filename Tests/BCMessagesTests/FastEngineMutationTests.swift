import BCMessages
import Foundation
import Testing

/// Fixtures mutated the ways the wire and bad networks mutate messages (numbers flipped to strings and back,
/// keys dropped or repeated, text cut off, unicode escapes, deeper nesting, longer arrays, nulls), with a fixed
/// seed and a bounded count: the fast engine and JSONDecoder must agree on the value or on the error.
@Suite struct FastEngineMutationTests {
    /// Fixed, so that CI runs the same cases every time; `BCSTREAM_MUTATION_SEED` and `BCSTREAM_MUTATIONS`
    /// (per fixture) explore further by hand.
    static let seed = ProcessInfo.processInfo.environment["BCSTREAM_MUTATION_SEED"].flatMap { UInt64($0) }
        ?? 0xBC57_2026
    static let mutationsPerFixture = ProcessInfo.processInfo.environment["BCSTREAM_MUTATIONS"].flatMap { Int($0) } ?? 12

    @Test func mutatedFixturesDecodeAlikeOnBothEngines() throws {
        var random = SeededGenerator(seed: Self.seed)
        var cases = 0
        var disagreements = 0
        var failures = 0
        for fixture in Fixture.all {
            let original = try JSONNode.parse(fixture.data())
            for _ in 0..<Self.mutationsPerFixture {
                let json = Data(Mutation.apply(to: original, using: &random))
                let text = String(decoding: json, as: UTF8.self)
                for mode in BCMessageDecoder.Mode.allCases {
                    cases += 1
                    let reference = Result { () throws(BCDecodingError) in
                        try BCMessageDecoder(mode: mode, engine: .foundation).decode(json)
                    }
                    let fast = Result { () throws(BCDecodingError) in
                        try BCMessageDecoder(mode: mode, engine: .fast).decode(json)
                    }
                    if case .failure = reference { failures += 1 }
                    if fast != reference {
                        disagreements += 1
                        if disagreements <= 10 {
                            Issue.record("""
                                \(fixture.name), \(mode): the engines disagree on
                                \(text)
                                JSONDecoder: \(reference)
                                fast:        \(fast)
                                """)
                        }
                    }
                }
            }
        }
        #expect(cases == Fixture.all.count * Self.mutationsPerFixture * 2)
        #expect(disagreements == 0)
        // The mutations must reach both sides: messages that still decode, and messages that fail.
        #expect(failures > cases / 10 && failures < cases * 9 / 10, "\(failures) of \(cases) fail")
    }
}

/// A JSON value that keeps what a mutation needs: key order and duplicates, and numbers as written.
indirect enum JSONNode {
    case object([(key: String, value: JSONNode)])
    case array([JSONNode])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    static func parse(_ data: Data) throws -> JSONNode {
        var parser = Parser(bytes: Array(data))
        return try parser.value()
    }

    struct ParseError: Error {}

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func value() throws -> JSONNode {
            skipSpace()
            guard index < bytes.count else { throw ParseError() }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [(key: String, value: JSONNode)] = []
                skipSpace()
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard case .string(let key) = try value() else { throw ParseError() }
                    skipSpace()
                    index += 1  // :
                    members.append((key, try value()))
                    skipSpace()
                    let next = bytes[index]
                    index += 1
                    if next == UInt8(ascii: "}") { return .object(members) }
                }
            case UInt8(ascii: "["):
                index += 1
                var elements: [JSONNode] = []
                skipSpace()
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                while true {
                    elements.append(try value())
                    skipSpace()
                    let next = bytes[index]
                    index += 1
                    if next == UInt8(ascii: "]") { return .array(elements) }
                }
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while bytes[index] != UInt8(ascii: "\"") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
                index += 1
                return .string(try JSONDecoder().decode(String.self, from: Data(bytes[start..<index])))
            case UInt8(ascii: "t"): index += 4; return .bool(true)
            case UInt8(ascii: "f"): index += 5; return .bool(false)
            case UInt8(ascii: "n"): index += 4; return .null
            default:
                let start = index
                while index < bytes.count, "0123456789+-.eE".utf8.contains(bytes[index]) { index += 1 }
                return .number(String(decoding: bytes[start..<index], as: UTF8.self))
            }
        }
    }

    /// JSON text; `escaping` writes non-ASCII characters (and, when asked, every letter) as `\uXXXX`.
    func text(escaping: Bool = false, escapingLetters: Bool = false, slashes: Bool = false) -> String {
        func quoted(_ string: String) -> String {
            var out = "\""
            for scalar in string.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "/" where slashes: out += "\\/"
                case "\n": out += "\\n"
                default:
                    if scalar.value < 0x20 || (escaping && scalar.value > 0x7E)
                        || (escapingLetters && scalar.properties.isAlphabetic) {
                        for unit in String(scalar).utf16 { out += "\\u" + String(format: "%04x", unit) }
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            return out + "\""
        }
        func write(_ node: JSONNode) -> String {
            switch node {
            case .object(let members):
                "{" + members.map { quoted($0.key) + ":" + write($0.value) }.joined(separator: ",") + "}"
            case .array(let elements): "[" + elements.map(write).joined(separator: ",") + "]"
            case .string(let string): quoted(string)
            case .number(let digits): digits
            case .bool(let bool): String(bool)
            case .null: "null"
            }
        }
        return write(self)
    }
}

/// One random change to a message, as the wire or a bad network might make it.
enum Mutation: CaseIterable {
    case numberToString, stringToNumber, dropKey, truncate, unicodeEscapes, escapedKey, nestDeeper, growArray
    case nullValue, duplicateKey, otherValue, changeType, badString

    /// The mutated message's bytes (not always UTF-8).
    static func apply(to node: JSONNode, using random: inout SeededGenerator) -> [UInt8] {
        let mutation = allCases.randomElement(using: &random) ?? .truncate
        var node = node
        switch mutation {
        case .truncate:
            let text = Array(node.text().utf8)
            return Array(text.prefix(Int.random(in: 0..<max(text.count, 1), using: &random)))
        case .unicodeEscapes:
            return Array(node.text(escaping: true, slashes: Bool.random(using: &random)).utf8)
        case .escapedKey:
            return Array(node.text(escaping: true, escapingLetters: true).utf8)
        case .badString:
            // Bytes no JSON string may hold, put after a quote (so mostly inside a string or a key).
            var bytes = Array(node.text().utf8)
            let quotes = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\"") }
            let bad: [[UInt8]] = [[0xFF], [0xC3], [0xED, 0xA0, 0x80], Array(#"\ud800"#.utf8), Array(#"\x"#.utf8), [0x09]]
            if let quote = quotes.randomElement(using: &random), let insert = bad.randomElement(using: &random) {
                bytes.insert(contentsOf: insert, at: quote + 1)
            }
            return bytes
        default:
            node.mutateRandomValue(using: &random) { value, random in mutation.change(&value, using: &random) }
            return Array(node.text(escaping: Bool.random(using: &random)).utf8)
        }
    }

    func change(_ value: inout JSONNode, using random: inout SeededGenerator) {
        switch self {
        case .numberToString:
            if case .number(let digits) = value { value = .string(digits) } else { value = .string("12") }
        case .stringToNumber:
            if case .string(let string) = value, !string.isEmpty, string.allSatisfy(\.isNumber) {
                value = .number(string)
            } else {
                let numbers = ["0", "1", "2", "-7", "3.0", "1.5", "1e3", "123456789012345678901"]
                value = .number(numbers.randomElement(using: &random) ?? "0")
            }
        case .dropKey:
            if case .object(var members) = value, !members.isEmpty {
                members.remove(at: Int.random(in: 0..<members.count, using: &random))
                value = .object(members)
            } else {
                value = .object([])
            }
        case .nestDeeper:
            value = Bool.random(using: &random) ? .array([value]) : .object([("x", value)])
        case .growArray:
            if case .array(let elements) = value, !elements.isEmpty {
                value = .array(Array(repeating: elements, count: Int.random(in: 2...5, using: &random)).flatMap { $0 })
            } else {
                value = .array(Array(repeating: value, count: Int.random(in: 1...4, using: &random)))
            }
        case .nullValue:
            value = .null
        case .duplicateKey:
            if case .object(var members) = value, let member = members.randomElement(using: &random) {
                let copy = (key: member.key, value: JSONNode.string("duplicate"))
                if Bool.random(using: &random) { members.append(copy) } else { members.insert(copy, at: 0) }
                value = .object(members)
            }
        case .otherValue:
            value = [JSONNode.bool(true), .bool(false), .string(""), .string("yes"), .number("2"), .array([]),
                     .object([])].randomElement(using: &random) ?? .null
        case .changeType:
            if case .object(var members) = value, let index = members.firstIndex(where: { $0.key == "t" }) {
                let types = BCType.allCases.map { String($0.rawValue) } + ["999", "\"35\""]
                members[index].value = .number(types.randomElement(using: &random) ?? "1")
                value = .object(members)
            } else {
                value = .null
            }
        case .truncate, .unicodeEscapes, .escapedKey, .badString:
            break
        }
    }
}

extension JSONNode {
    /// Applies `change` to one value picked at random among this value and everything inside it (the whole
    /// message included, so that top-level keys get dropped and repeated too).
    mutating func mutateRandomValue(using random: inout SeededGenerator,
                                    _ change: (inout JSONNode, inout SeededGenerator) -> Void) {
        var count = 0
        countValues(&count)
        var target = Int.random(in: 0..<count, using: &random)
        visit(&target, random: &random, change)
    }

    private func countValues(_ count: inout Int) {
        count += 1
        switch self {
        case .object(let members): for member in members { member.value.countValues(&count) }
        case .array(let elements): for element in elements { element.countValues(&count) }
        default: break
        }
    }

    private mutating func visit(_ target: inout Int, random: inout SeededGenerator,
                                _ change: (inout JSONNode, inout SeededGenerator) -> Void) {
        if target == 0 {
            change(&self, &random)
            target = -1
            return
        }
        target -= 1
        switch self {
        case .object(var members):
            for index in members.indices where target >= 0 {
                members[index].value.visit(&target, random: &random, change)
            }
            self = .object(members)
        case .array(var elements):
            for index in elements.indices where target >= 0 { elements[index].visit(&target, random: &random, change) }
            self = .array(elements)
        default:
            break
        }
    }
}

/// SplitMix64: the same seed gives the same mutations on every machine.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
