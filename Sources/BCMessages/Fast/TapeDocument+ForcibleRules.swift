#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `Forcible` coercion rules over the tape, decided by the JSON kind of the value instead of by probing with
/// throwing decodes.
///
/// Each `force…` function must give exactly what `init(forcing:)` in `ForcibleValue.swift` gives over
/// Foundation's decoder; `FastEngineScalarTests` checks them side by side over a table of JSON literals.
extension TapeDocument {
    /// `String(forcing:)`: a string, or a number digit for digit.
    func forceString(at index: Int32) -> String? {
        switch entries[Int(index)].kind {
        case .string:
            return string(at: index)
        case .number:
            if let text = shortIntegerText(at: index) { return text }
            if let int = int64(at: index) { return String(int) }
            if let uint = uint64(at: index) { return String(uint) }
            if let text = integerText(at: index) { return text }
            if let text = plainFractionText(at: index) { return text }
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
            if let raw = plainString(at: index) { return Self.intText(raw) }
            return string(at: index).flatMap { Int($0) }
        default:
            return nil
        }
    }

    @inline(__always)
    static func bytesEqual(_ raw: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        text.withUTF8Buffer { $0.elementsEqual(raw) }
    }

    /// The bytes of a string with no escapes, control characters or bytes beyond ASCII: exactly its UTF-8, so
    /// rules over a String's text can read them in place, without making the String.
    @inline(__always)
    func plainString(at index: Int32) -> UnsafeBufferPointer<UInt8>? {
        let entry = entries[Int(index)]
        guard entry.flags & (TapeEntry.escaped | TapeEntry.control | TapeEntry.nonASCII) == 0 else { return nil }
        work += Int(entry.b - entry.a)
        return UnsafeBufferPointer(rebasing: bytes[Int(entry.a)..<Int(entry.b)])
    }

    /// `Int(text)` over ASCII bytes: an optional `+` or `-`, then one or more digits, in range.
    static func intText(_ raw: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let negative = raw.first == UInt8(ascii: "-")
        if negative || raw.first == UInt8(ascii: "+") { index = 1 }
        guard index < raw.count else { return nil }
        var value = 0
        if raw.count &- index <= 18 {
            // Eighteen digits or fewer cannot overflow: no check per digit (ids and amounts are 1-10 digits).
            while index < raw.count {
                let digit = raw[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value &* 10 &+ Int(digit)
                index &+= 1
            }
            return negative ? 0 &- value : value
        }
        while index < raw.count {
            let digit = raw[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative ? times10.subtractingReportingOverflow(Int(digit))
                : times10.addingReportingOverflow(Int(digit))
            if overflow1 || overflow2 { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// `Double(forcing:)`: a number, or a string holding a finite one.
    func forceDouble(at index: Int32) -> Double? {
        switch entries[Int(index)].kind {
        case .number:
            return double(at: index)
        case .string:
            // Digits only, fifteen at most: the integer is the Double exactly (`-0` is -0.0, as Double("-0")).
            if let raw = plainString(at: index), raw.count <= 15, let int = Self.intText(raw) {
                return int == 0 && raw.first == UInt8(ascii: "-") ? -0.0 : Double(int)
            }
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
            if let raw = plainString(at: index) {
                switch raw.count {
                case 1: return raw[0] == UInt8(ascii: "1") ? true : raw[0] == UInt8(ascii: "0") ? false : nil
                case 4: return Self.bytesEqual(raw, "true") ? true : nil
                case 5: return Self.bytesEqual(raw, "false") ? false : nil
                default: return nil
                }
            }
            switch string(at: index) {
            case "0", "false": return false
            case "1", "true": return true
            default: return nil
            }
        default:
            return nil
        }
    }
}
