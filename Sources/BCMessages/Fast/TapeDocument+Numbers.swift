#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reading numbers off the tape with the semantics of Foundation's `JSONDecoder` (the `Forcible` rules over them
/// are in `TapeDocument+ForcibleRules.swift`).
extension TapeDocument {
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

    /// Where the digits of an integer literal token (`-?[0-9]*`, as the scanner flags it) start, when it has 1 to
    /// 18 of them and no leading zero: valid JSON, and within Int64 by its length. Nil for any other token.
    @inline(__always)
    static func shortIntegerStart(_ token: UnsafeBufferPointer<UInt8>) -> Int? {
        let start = token.first == UInt8(ascii: "-") ? 1 : 0
        let digits = token.count - start
        guard digits >= 1, digits <= 18, digits == 1 || token[start] != UInt8(ascii: "0") else { return nil }
        return start
    }

    /// A short plain integer token (`shortIntegerStart`), read without checks; nil for any other token.
    @inline(__always)
    static func shortInteger(_ token: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let start = shortIntegerStart(token) else { return nil }
        var value: Int64 = 0
        for index in start..<token.count { value = value &* 10 &+ Int64(token[index] &- UInt8(ascii: "0")) }
        return start == 1 ? -value : value
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

    /// The number as Int64, as `JSONDecoder` decodes `Int`/`Int64` (see `integer(_:at:)`).
    ///
    /// Its usual case, a plain literal of at most 18 digits, is read here, inlined into the forcible rules that
    /// call it; the rest by `integer(_:at:)`.
    @inline(__always)
    func int64(at index: Int32) -> Int64? {
        let entry = entries[Int(index)]
        if entry.kind == .number, entry.flags & TapeEntry.integerLiteral != 0,
           let int = Self.shortInteger(token(at: index)) {
            return int
        }
        return integer(Int64.self, at: index)
    }

    /// The number as UInt64, as `JSONDecoder` decodes it (see `integer(_:at:)`).
    func uint64(at index: Int32) -> UInt64? { integer(UInt64.self, at: index) }

    /// The number as `T`, as `JSONDecoder` decodes a fixed-width integer (swift-foundation's
    /// `unwrapFixedWidthInteger`): a plain integer literal in range is itself; any other number goes through
    /// Double, which must hold an integer of `T` (`12.0`, `1.2e1`; `1e-400` is 0). Below 2^53 that is the value.
    /// From 2^53 up, where a Double no longer tells integers apart, the value is the number read as Decimal and
    /// truncated toward zero: `9007199254740993.0` is 9007199254740993 (the Double says ...992), and
    /// `9007199254740993.5` is 9007199254740993 too; a Decimal whose digits exceed UInt64 is no integer at all.
    func integer<T: FixedWidthInteger>(_ type: T.Type, at index: Int32) -> T? {
        let entry = entries[Int(index)]
        guard entry.kind == .number else { return nil }
        let token = token(at: index)
        // The usual case, a short plain integer, in one pass; anything else is checked, then read as before.
        if entry.flags & TapeEntry.integerLiteral != 0, let int = Self.shortInteger(token),
           let value = T(exactly: int) {
            return value
        }
        guard Self.isValidNumber(token) else { return nil }
        if entry.flags & TapeEntry.integerLiteral != 0 {
            if let int = Self.parseInteger(token) {
                if let value = T(exactly: int) { return value }
            } else if token[0] != UInt8(ascii: "-"), let uint = UInt64(String(decoding: token, as: UTF8.self)),
                      let value = T(exactly: uint) {
                return value
            }
        }
        return Self.integerThroughDouble(T.self, String(decoding: token, as: UTF8.self))
    }

    /// JSONDecoder's slow path for integers (`_slowpath_unwrapFixedWidthInteger` and its
    /// `FixedWidthInteger.init?(_: Decimal)`), for a valid number token that is not a plain literal in range.
    static func integerThroughDouble<T: FixedWidthInteger>(_: T.Type, _ text: String) -> T? {
        guard let double = Double(text), let value = T(exactly: double) else { return nil }
        if double.magnitude < 0x1p53 { return value }
        guard let decimal = Decimal(string: text), !decimal.isNaN else { return nil }
        if decimal.isSignMinus && !T.isSigned { return nil }
        // The Decimal's digits must fit UInt64, then its exponent scales them (a negative one truncating).
        guard var magnitude = UInt64(decimal.significand.description) else { return nil }
        if decimal.exponent < 0 {
            for _ in 0 ..< -decimal.exponent { magnitude /= 10 }
        } else {
            for _ in 0 ..< decimal.exponent {
                let (scaled, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                if overflow { return nil }
                magnitude = scaled
            }
        }
        guard let sized = T(exactly: magnitude) else { return nil }
        return decimal.isSignMinus ? 0 - sized : sized
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
        // A nonzero number that rounds to zero underflowed, and JSONDecoder fails on it.
        if double == 0 && !Self.isTrueZero(token) { return nil }
        return double
    }

    /// Whether a number that parsed as zero is written as zero, byte for byte as JSONDecoder decides it
    /// (`JSONDecoderImpl.isTrueZero`): a nonzero digit before the exponent means it underflowed. JSONDecoder
    /// looks at four bytes at a time from the start, but at the last `count % 4` bytes from last to first, so it
    /// meets the exponent's digit of `0e1`, `0E1` or `0.00e1` before the `e`: those are no Double to it (a message
    /// of an unknown kind holding one does not decode), and the fast engine agrees.
    static func isTrueZero(_ token: UnsafeBufferPointer<UInt8>) -> Bool {
        @inline(__always)
        func check(_ byte: UInt8) -> Bool? {
            switch byte {
            case UInt8(ascii: "1")...UInt8(ascii: "9"): false
            case UInt8(ascii: "e"), UInt8(ascii: "E"): true
            default: nil
            }
        }
        var offset = 0
        while token.count - offset >= 4 {
            for byte in token[offset..<(offset + 4)] {
                if let answer = check(byte) { return answer }
            }
            offset += 4
        }
        for byte in token[offset...].reversed() {
            if let answer = check(byte) { return answer }
        }
        return true
    }

    /// The number as Decimal, as `JSONDecoder` decodes it.
    func decimal(at index: Int32) -> Decimal? {
        guard entries[Int(index)].kind == .number else { return nil }
        let token = token(at: index)
        guard Self.isValidNumber(token) else { return nil }
        return Decimal(string: String(decoding: token, as: UTF8.self))
    }

    /// A fraction written plainly (`-?(0|[1-9][0-9]*)\.[0-9]*[1-9]`, at most 30 bytes) is its own `Decimal`
    /// description: `"\(Decimal(string:))"` gives the same digits back, with no trailing zero or exponent to
    /// drop, so it is taken as it is, without Foundation's parser and formatter (2 µs for `0.75`). Nil for any
    /// other number, which goes through `Decimal`.
    func plainFractionText(at index: Int32) -> String? {
        guard entries[Int(index)].kind == .number else { return nil }
        let token = token(at: index)
        guard token.count <= 30, let last = token.last, last != UInt8(ascii: "0"), last &- UInt8(ascii: "0") < 10
        else { return nil }
        var position = token.first == UInt8(ascii: "-") ? 1 : 0
        let integerStart = position
        while position < token.count, token[position] &- UInt8(ascii: "0") < 10 { position += 1 }
        let integerDigits = position - integerStart
        guard integerDigits > 0, integerDigits == 1 || token[integerStart] != UInt8(ascii: "0"),
              position < token.count, token[position] == UInt8(ascii: ".") else { return nil }
        position += 1
        guard position < token.count else { return nil }
        while position < token.count, token[position] &- UInt8(ascii: "0") < 10 { position += 1 }
        guard position == token.count else { return nil }
        return String(decoding: token, as: UTF8.self)
    }

    /// The literal digits of an integer literal, for ids longer than any integer type.
    func integerText(at index: Int32) -> String? {
        let entry = entries[Int(index)]
        guard entry.kind == .number, entry.flags & TapeEntry.integerLiteral != 0 else { return nil }
        let token = token(at: index)
        guard Self.isValidNumber(token) else { return nil }
        return String(decoding: token, as: UTF8.self)
    }

    /// `String(Int)` of a short plain integer (`-?[1-9][0-9]{0,17}`, `0` or `-0`, the literals `shortInteger`
    /// reads): the literal's own bytes, digit for digit, and `0` for `-0`, without reading the Int and writing it
    /// back (`slot_id: 0`, numeric ids). Nil for any other number, which the `Forcible` rules read otherwise.
    @inline(__always)
    func shortIntegerText(at index: Int32) -> String? {
        let entry = entries[Int(index)]
        guard entry.flags & TapeEntry.integerLiteral != 0 else { return nil }
        let token = token(at: index)
        guard let start = Self.shortIntegerStart(token) else { return nil }
        if start == 1, token[1] == UInt8(ascii: "0") { return "0" }
        return Self.validString(token, isASCII: true)
    }
}
