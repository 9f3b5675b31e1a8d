import BCMessages

/// One JSON value of a message, with the byte range of its text, so that a report can quote a value as it was
/// received and `FixtureRedaction` can replace a value in place, leaving every other byte as it is.
///
/// The audit's own small parser rather than `JSONDecoder`: it keeps the ranges, the order of keys and a key
/// seen twice, knows a number from a string without guessing through `Double`, and fails with a reason on
/// nesting deeper than `maxDepth` instead of recursing without bound. Linear in the text.
/// Why a text is not a JSON document, in words, with the byte where reading stopped.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong and where, in words: `expected a value at byte 12`.
    public let reason: String
    public var description: String { reason }
}

indirect enum AuditJSON: Sendable {
    case null(Range<Int>)
    case boolean(Range<Int>)
    case number(Range<Int>)
    /// A string, decoded.
    case string(String, Range<Int>)
    case array([AuditJSON], Range<Int>)
    /// An object's members in the order of the text.
    case object([(key: String, value: AuditJSON)], Range<Int>)

    var type: BCWireField.JSONType {
        switch self {
        case .null: .null
        case .boolean: .boolean
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// The byte range of the value's text.
    var range: Range<Int> {
        switch self {
        case .null(let range), .boolean(let range), .number(let range), .string(_, let range), .array(_, let range),
             .object(_, let range):
            range
        }
    }

    /// The value of `key`, when this is an object (the first, if the key is there twice).
    subscript(key: String) -> AuditJSON? {
        guard case .object(let members, _) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// How deep arrays and objects may nest: far beyond any message, far below a stack's limit.
    static let maxDepth = 64

    typealias Failure = JSONSyntaxError

    /// Parses one JSON document, which must fill `bytes` but for white space.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> AuditJSON {
        var parser = Parser(bytes: bytes)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.failure("text after the JSON value") }
        return value
    }

    static func parse(_ text: some StringProtocol) throws(Failure) -> AuditJSON {
        try parse(Array(text.utf8))
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        func failure(_ what: String) -> Failure {
            Failure(reason: "not JSON: \(what) at byte \(index + 1)")
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func literal(_ word: StaticString) throws(Failure) {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw failure("an unfinished literal") }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
                throw failure("an unexpected character")
            }
            index += count
        }

        mutating func value(depth: Int) throws(Failure) -> AuditJSON {
            guard index < bytes.count else { throw failure("the end of the text where a value was expected") }
            let start = index
            switch bytes[index] {
            case UInt8(ascii: "n"):
                try literal("null")
                return .null(start..<index)
            case UInt8(ascii: "t"):
                try literal("true")
                return .boolean(start..<index)
            case UInt8(ascii: "f"):
                try literal("false")
                return .boolean(start..<index)
            case UInt8(ascii: "\""):
                let text = try string()
                return .string(text, start..<index)
            case UInt8(ascii: "["):
                guard depth < AuditJSON.maxDepth else { throw failure("arrays and objects nested deeper than 64") }
                index += 1
                var elements: [AuditJSON] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array([], start..<index)
                }
                while true {
                    skipSpace()
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    guard index < bytes.count else { throw failure("an unfinished array") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "]") else { throw failure("a character where , or ] was expected") }
                    index += 1
                    return .array(elements, start..<index)
                }
            case UInt8(ascii: "{"):
                guard depth < AuditJSON.maxDepth else { throw failure("arrays and objects nested deeper than 64") }
                index += 1
                var members: [(key: String, value: AuditJSON)] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object([], start..<index)
                }
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                        throw failure("a character where a key was expected")
                    }
                    let key = try string()
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                        throw failure("a character where : was expected")
                    }
                    index += 1
                    skipSpace()
                    members.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    guard index < bytes.count else { throw failure("an unfinished object") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "}") else { throw failure("a character where , or } was expected") }
                    index += 1
                    return .object(members, start..<index)
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try number()
                return .number(start..<index)
            default:
                throw failure("an unexpected character")
            }
        }

        /// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        mutating func number() throws(Failure) {
            func digits() -> Int {
                let start = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                return index - start
            }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count else { throw failure("an unfinished number") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                guard digits() > 0 else { throw failure("a number without digits") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw failure("a number without digits after its point") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw failure("a number without digits in its exponent") }
            }
        }

        /// A string from its opening quote, decoded; `index` ends after the closing quote.
        mutating func string() throws(Failure) -> String {
            index += 1
            let start = index
            // The common case, no escape: one pass, one copy.
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"),
                  bytes[index] >= 0x20 {
                index += 1
            }
            guard index < bytes.count else { throw failure("an unfinished string") }
            if bytes[index] == UInt8(ascii: "\"") {
                index += 1
                return try checkedUTF8(bytes[start..<(index - 1)])
            }
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: try checkedUTF8(bytes[start..<index]).unicodeScalars)
            var runStart = index
            while true {
                guard index < bytes.count else { throw failure("an unfinished string") }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    scalars.append(contentsOf: try checkedUTF8(bytes[runStart..<index]).unicodeScalars)
                    index += 1
                    return String(scalars)
                }
                guard byte >= 0x20 else { throw failure("a control character inside a string") }
                guard byte == UInt8(ascii: "\\") else { index += 1; continue }
                scalars.append(contentsOf: try checkedUTF8(bytes[runStart..<index]).unicodeScalars)
                index += 1
                guard index < bytes.count else { throw failure("an unfinished escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    let unit = try hex4()
                    if (0xD800..<0xDC00).contains(unit), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                       bytes[index + 1] == UInt8(ascii: "u") {
                        let save = index
                        index += 2
                        let low = try hex4()
                        if (0xDC00..<0xE000).contains(low) {
                            let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                        } else {
                            scalars.append("\u{FFFD}")
                            index = save
                        }
                    } else {
                        // A lone surrogate has no scalar: shown as U+FFFD, as JSONDecoder would refuse it.
                        scalars.append(Unicode.Scalar(UInt32(unit)) ?? "\u{FFFD}")
                    }
                default:
                    index -= 1
                    throw failure("an unknown escape")
                }
                runStart = index
            }
        }

        mutating func hex4() throws(Failure) -> UInt16 {
            guard index + 4 <= bytes.count else { throw failure("an unfinished \\u escape") }
            var value: UInt16 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw failure("a \\u escape without four hex digits")
                }
                value = value << 4 | UInt16(digit)
                index += 1
            }
            return value
        }

        func checkedUTF8(_ slice: ArraySlice<UInt8>) throws(Failure) -> String {
            guard let text = String(validating: slice, as: UTF8.self) else { throw failure("bytes that are not UTF-8") }
            return text
        }
    }
}
