#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reading scalars off the tape with the semantics of Foundation's `JSONDecoder`, and the `Forcible` coercion
/// rules decided by the JSON kind of the value instead of by probing with throwing decodes.
///
/// Each `force…` function must give exactly what `init(forcing:)` in `ForcibleValue.swift` gives over
/// Foundation's decoder; `FastEngineScalarTests` checks them side by side over a table of JSON literals.
extension TapeDocument {
    // MARK: - Numbers (Foundation's semantics)

    @inline(__always)
    func token(at index: Int32) -> UnsafeBufferPointer<UInt8> {
        let entry = entries[Int(index)]
        return UnsafeBufferPointer(rebasing: bytes[Int(entry.a)..<Int(entry.b)])
    }

    /// Whether a number token is a JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`. Foundation
    /// scans looser tokens (`01`, `1.`, `-`) and rejects them only when they are read; so does the fast engine.
    static func isValidNumber(_ token: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = token.count
        func digits(_ index: inout Int) -> Int {
            let start = index
            while index < count, token[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            return index - start
        }
        if index < count, token[index] == UInt8(ascii: "-") { index += 1 }
        guard index < count else { return false }
        if token[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits(&index) == 0 {
            return false
        }
        if index < count, token[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&index) > 0 else { return false }
        }
        if index < count, token[index] == UInt8(ascii: "e") || token[index] == UInt8(ascii: "E") {
            index += 1
            if index < count, token[index] == UInt8(ascii: "+") || token[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&index) > 0 else { return false }
        }
        return index == count
    }

    /// A plain integer literal (`-?[0-9]+`, already valid JSON) that fits Int64.
    @inline(__always)
    static func parseInteger(_ token: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        let negative = token[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        var magnitude: UInt64 = 0
        while index < token.count {
            let digit = UInt64(token[index] &- UInt8(ascii: "0"))
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            magnitude = sum
            index += 1
        }
        if negative {
            return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// The number as Int64, as `JSONDecoder` decodes `Int`/`Int64`: an integral value in range, whether written
    /// `12`, `12.0` or `1.2e1`.
    func int64(at index: Int32) -> Int64? {
        let entry = entries[Int(index)]
        guard entry.kind == .number else { return nil }
        let token = token(at: index)
        if entry.flags & TapeEntry.integerLiteral != 0 {
            guard Self.isValidNumber(token) else { return nil }
            return Self.parseInteger(token)
        }
        guard let double = parsedDouble(at: index), double.rounded(.towardZero) == double else { return nil }
        return Int64(exactly: double)
    }

    /// The number as UInt64, as `JSONDecoder` decodes it.
    func uint64(at index: Int32) -> UInt64? {
        let entry = entries[Int(index)]
        guard entry.kind == .number else { return nil }
        let token = token(at: index)
        if entry.flags & TapeEntry.integerLiteral != 0 {
            guard Self.isValidNumber(token) else { return nil }
            if token[0] == UInt8(ascii: "-") { return Self.parseInteger(token) == 0 ? 0 : nil }
            return UInt64(String(decoding: token, as: UTF8.self))
        }
        guard let double = parsedDouble(at: index), double.rounded(.towardZero) == double else { return nil }
        return UInt64(exactly: double)
    }

    /// A valid number token parsed as Double, finite. This is how `JSONDecoder` reads an integer written with
    /// a fraction or an exponent (`1e-400` is the integer 0 to it).
    private func parsedDouble(at index: Int32) -> Double? {
        let token = token(at: index)
        guard Self.isValidNumber(token),
              let double = Double(String(decoding: token, as: UTF8.self)), double.isFinite
        else { return nil }
        return double
    }

    /// The number as Double, as `JSONDecoder` decodes it: a valid JSON number that neither overflows to
    /// infinity nor underflows to zero (subnormals are fine).
    func double(at index: Int32) -> Double? {
        let entry = entries[Int(index)]
        guard entry.kind == .number else { return nil }
        let token = token(at: index)
        if entry.flags & TapeEntry.integerLiteral != 0, token.count < 16, token[0] != UInt8(ascii: "-") {
            guard Self.isValidNumber(token), let int = Self.parseInteger(token) else { return nil }
            return Double(int)
        }
        guard let double = parsedDouble(at: index) else { return nil }
        if double == 0 {
            // strtod reports ERANGE for a nonzero number that rounds to zero, and JSONDecoder fails on it.
            for byte in token {
                if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
                if byte &- UInt8(ascii: "1") < 9 { return nil }
            }
        }
        return double
    }

    /// The number as Decimal, as `JSONDecoder` decodes it.
    func decimal(at index: Int32) -> Decimal? {
        guard entries[Int(index)].kind == .number else { return nil }
        let token = token(at: index)
        guard Self.isValidNumber(token) else { return nil }
        return Decimal(string: String(decoding: token, as: UTF8.self))
    }

    /// The literal digits of an integer literal, for ids longer than any integer type.
    func integerText(at index: Int32) -> String? {
        let entry = entries[Int(index)]
        guard entry.kind == .number, entry.flags & TapeEntry.integerLiteral != 0 else { return nil }
        let token = token(at: index)
        guard Self.isValidNumber(token) else { return nil }
        return String(decoding: token, as: UTF8.self)
    }

    // MARK: - Forcible rules by kind

    /// `String(forcing:)`: a string, or a number digit for digit.
    func forceString(at index: Int32) -> String? {
        switch entries[Int(index)].kind {
        case .string:
            return string(at: index)
        case .number:
            if let int = int64(at: index) { return String(int) }
            if let uint = uint64(at: index) { return String(uint) }
            if let text = integerText(at: index) { return text }
            if let decimal = decimal(at: index) { return "\(decimal)" }
            if let double = double(at: index) { return String(double) }
            return nil
        default:
            return nil
        }
    }

    /// `Int(forcing:)`: a number, or a string holding one; an integral float is an Int.
    func forceInt(at index: Int32) -> Int? {
        switch entries[Int(index)].kind {
        case .number:
            if let int = int64(at: index) { return Int(exactly: int) }
            if let double = double(at: index), double.rounded() == double { return Int(exactly: double) }
            return nil
        case .string:
            return string(at: index).flatMap { Int($0) }
        default:
            return nil
        }
    }

    /// `Double(forcing:)`: a number, or a string holding a finite one.
    func forceDouble(at index: Int32) -> Double? {
        switch entries[Int(index)].kind {
        case .number:
            return double(at: index)
        case .string:
            guard let double = string(at: index).flatMap({ Double($0) }), double.isFinite else { return nil }
            return double
        default:
            return nil
        }
    }

    /// `Bool(forcing:)`: true/false, 0/1, "0"/"1", "true"/"false".
    func forceBool(at index: Int32) -> Bool? {
        switch entries[Int(index)].kind {
        case .true: return true
        case .false: return false
        case .number:
            switch int64(at: index) {
            case 0: return false
            case 1: return true
            default: return nil
            }
        case .string:
            switch string(at: index) {
            case "0", "false": return false
            case "1", "true": return true
            default: return nil
            }
        default:
            return nil
        }
    }

    // MARK: - JSONValue

    /// `JSONValue(from:)` over this document, without probing: the same value, or an error where
    /// `JSONValue(from:)` fails (a value no decode accepts: an unreadable string, a number no Double holds).
    func jsonValue(at index: Int32) throws -> JSONValue {
        let entry = entries[Int(index)]
        switch entry.kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .string:
            if let string = string(at: index) { return .string(string) }
        case .number:
            if double(at: index) != nil, let digits = forceString(at: index) { return .number(digits) }
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(Int(entry.b))
            var element = index + 1
            do {
                for _ in 0..<entry.b {
                    elements.append(try jsonValue(at: element))
                    element = next(after: element)
                }
                return .array(elements)
            } catch {
                // JSONValue tries `[JSONValue]` with `try?`, so a bad element fails the array as a whole, and it
                // goes on to try an object.
            }
        case .object:
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(Int(entry.b))
            var key = index + 1
            for _ in 0..<entry.b {
                guard let name = string(at: key) else {
                    throw mismatch([String: Any].self, at: index, "Expected to decode Dictionary<String, Any>")
                }
                // The first of duplicate keys wins, and a later duplicate is never read.
                if members[name] == nil { members[name] = try jsonValue(at: key + 1) }
                key = next(after: key + 1)
            }
            return .object(members)
        }
        throw mismatch([String: Any].self, at: index, "Expected to decode Dictionary<String, Any>")
    }

    // MARK: - Errors

    /// What Foundation calls the JSON at `index` in its error messages.
    func kindDescription(at index: Int32) -> String {
        switch entries[Int(index)].kind {
        case .string: "a string"
        case .number: "number"
        case .true, .false: "bool"
        case .null: "null"
        case .object: "a dictionary"
        case .array: "an array"
        }
    }

    func mismatch(_ type: Any.Type, at index: Int32, _ expectation: String) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath(to: index),
                                  debugDescription: "\(expectation) but found \(kindDescription(at: index)) instead."))
    }

    /// The coding path from the top-level value to `index`, found by walking down the tape: only errors need
    /// it, so no decoder carries one.
    func codingPath(to target: Int32) -> [any CodingKey] {
        var path: [any CodingKey] = []
        var container: Int32 = 0
        while container != target {
            let entry = entries[Int(container)]
            var child = container + 1
            var found = false
            for ordinal in 0..<Int(entry.b) {
                let value = entry.kind == .object ? child + 1 : child
                let end = next(after: value)
                if value <= target && target < end {
                    if entry.kind == .object {
                        let name = string(at: child) ?? ""
                        var key = TapeCodingKey(stringValue: name)
                        if entry.flags & TapeEntry.integerKeys != 0 { key.intValue = Int(name) }
                        path.append(key)
                    } else {
                        path.append(TapeCodingKey(intValue: ordinal))
                    }
                    container = value
                    found = true
                    break
                }
                child = end
            }
            if !found { break }
        }
        return path
    }
}

/// A key of a coding path the fast engine builds for an error: an object key or an array index.
struct TapeCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}
