#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes JSON text byte for byte as `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` writes it, without
/// going through `Encoder`: the generated `writeCanonicalJSON(into:)` of every payload struct feeds it its
/// properties in sorted key order, leaving out nil optionals as `encode(to:)` does.
///
/// What it matches (pinned by `CanonicalJSONWriterTests` against `JSONEncoder` itself):
/// - strings: `"` and `\` escaped, U+0008/09/0A/0C/0D as `\b` `\t` `\n` `\f` `\r`, the other controls below
///   U+0020 as `\u00xx` with lowercase hex; `/`, DEL, U+2028 and every other scalar written as UTF-8;
/// - numbers: an `Int` in decimal; a `Double` as its `description` without a trailing `.0` (`1`, `0.5`,
///   `1e+21`, `3e-07`); a non-finite `Double`, which `JSONEncoder` refuses, sets `failed`;
/// - objects: keys in the order of their UTF-8 bytes (not `String`'s `<`, which differs beyond ASCII).
///
/// Commas are placed by the writer: `key(_:)` and `element()` write one before every member but the first.
public struct CanonicalJSONWriter: Sendable {
    /// Where the text is written: one buffer, copied only when a copy of the writer is written to while the
    /// buffer is shared (copy on write, like an array's, but with the check inlined and a single capacity check
    /// per piece written, which the writer makes for every key and value).
    private var storage: Storage
    /// Set when a value was met that `JSONEncoder` would refuse to encode (a NaN or infinite double); the text
    /// is then not what `JSONEncoder` gives (it gives none), and the caller should fall back to it.
    public private(set) var failed = false
    /// True until the first member of the innermost open object or array is written.
    private var atFirstMember = true

    /// An empty writer whose buffer starts with room for `capacity` bytes.
    public init(capacity: Int = 512) {
        storage = Storage(capacity: capacity)
    }

    /// The UTF-8 text written so far (a copy: `withBytes` reads it in place).
    public var bytes: [UInt8] { withBytes { Array($0) } }

    /// Calls `body` with the UTF-8 text written so far, in place.
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: storage.base, count: storage.count))
    }

    /// The text written so far.
    public var text: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    /// Empties the writer for the next text, keeping its storage: one writer can serve a stream of lines without
    /// an allocation (and regrowth) per line.
    public mutating func reset() {
        // A huge message grew it (a string may take six bytes per byte): not kept for every line after.
        if isKnownUniquelyReferenced(&storage), storage.capacity <= Self.keptCapacity {
            storage.count = 0
        } else {
            storage = Storage(capacity: min(storage.capacity, Self.keptCapacity))
        }
        failed = false
        atFirstMember = true
    }

    /// The most storage `reset()` keeps.
    static let keptCapacity = 256 * 1024

    /// Room for `count` more bytes, at the end of the text: write them, then `commit(count)`.
    @inline(__always)
    private mutating func room(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        if !isKnownUniquelyReferenced(&storage) || storage.capacity - storage.count < count {
            storage = storage.copy(minimumCapacity: storage.count + count)
        }
        return storage.base + storage.count
    }

    @inline(__always)
    private mutating func commit(_ count: Int) {
        storage.count += count
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        room(1).pointee = byte
        commit(1)
    }

    @inline(__always)
    private mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let source = buffer.baseAddress, !buffer.isEmpty else { return }
        room(buffer.count).update(from: source, count: buffer.count)
        commit(buffer.count)
    }

    private mutating func append(contentsOf bytes: some Collection<UInt8>) {
        let at = room(bytes.count)
        var index = 0
        for byte in bytes {
            at[index] = byte
            index += 1
        }
        commit(index)
    }

    /// The buffer. Only ever written through a writer that holds the only reference to it (`room` copies it
    /// otherwise), so a writer sent to another thread, or copied, never sees it change: hence `@unchecked
    /// Sendable`, as an array's storage is.
    private final class Storage: @unchecked Sendable {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int
        var count = 0

        init(capacity: Int) {
            self.capacity = max(64, capacity)
            base = .allocate(capacity: self.capacity)
        }

        /// A copy holding at least `minimumCapacity` bytes (at least twice this one's, to grow geometrically).
        func copy(minimumCapacity: Int) -> Storage {
            let copy = Storage(capacity: max(minimumCapacity, 2 * capacity))
            copy.base.update(from: base, count: count)
            copy.count = count
            return copy
        }

        deinit {
            base.deallocate()
        }
    }

    // MARK: - Structure

    /// Text written as it is (`{"t":`), for framing that is not sorted (an NDJSON line's own fields).
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    /// Opens an object: `{`.
    public mutating func beginObject() {
        append(UInt8(ascii: "{"))
        atFirstMember = true
    }

    /// Closes the innermost object: `}`.
    public mutating func endObject() {
        append(UInt8(ascii: "}"))
        atFirstMember = false
    }

    /// Opens an array: `[`.
    public mutating func beginArray() {
        append(UInt8(ascii: "["))
        atFirstMember = true
    }

    /// Closes the innermost array: `]`.
    public mutating func endArray() {
        append(UInt8(ascii: "]"))
        atFirstMember = false
    }

    /// Before an array element: a comma unless it is the first.
    public mutating func element() {
        if atFirstMember { atFirstMember = false } else { append(UInt8(ascii: ",")) }
    }

    /// A member's key that needs no escaping (a catalogue key: checked by the generator), and the colon.
    public mutating func key(_ key: StaticString) {
        // `,"key":` in one piece: one capacity check, one copy (this runs for every member of every message).
        // (`withUTF8Buffer`, not `utf8Start`: a one-character literal may be stored as a scalar.)
        let comma = atFirstMember ? 0 : 1
        atFirstMember = false
        key.withUTF8Buffer { utf8 in
            let length = utf8.count
            let at = room(comma + length + 3)
            at.pointee = UInt8(ascii: ",")
            (at + comma).pointee = UInt8(ascii: "\"")
            if let source = utf8.baseAddress { (at + comma + 1).update(from: source, count: length) }
            (at + comma + 1 + length).pointee = UInt8(ascii: "\"")
            (at + comma + 2 + length).pointee = UInt8(ascii: ":")
            commit(comma + length + 3)
        }
    }

    /// A member's key known only at run time, escaped, and the colon. (Named apart from `key(_:)`: a string
    /// literal would pick this overload, and every generated key was escaped at run time.)
    public mutating func key(escaping key: String) {
        element()
        string(key)
        append(UInt8(ascii: ":"))
    }

    /// A message of a kind without keys: `{"t":42}`.
    public mutating func bareMessage(t: Int) {
        beginObject()
        key("t")
        int(t)
        endObject()
    }

    // MARK: - Scalars

    /// The value `null`.
    public mutating func null() {
        raw("null")
    }

    /// `true` or `false`.
    public mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// A forcible flag, in the form `Bool.encodeCanonical(to:)` gives it: `1` or `0`.
    public mutating func flag(_ value: Bool) {
        append(value ? UInt8(ascii: "1") : UInt8(ascii: "0"))
    }

    /// An integer, in decimal.
    public mutating func int(_ value: Int) {
        var magnitude = value.magnitude
        if magnitude < 10 {
            let at = room(2)
            var length = 0
            if value < 0 {
                at[0] = UInt8(ascii: "-")
                length = 1
            }
            at[length] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
            commit(length + 1)
            return
        }
        // Twenty digits hold any UInt64: counted, then written backwards straight into place.
        var digits = 0
        var rest = magnitude
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let sign = value < 0 ? 1 : 0
        let at = room(sign + digits)
        if sign == 1 { at[0] = UInt8(ascii: "-") }
        var index = sign + digits
        while magnitude > 0 {
            index -= 1
            at[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        }
        commit(sign + digits)
    }

    /// `JSONEncoder`'s rule: the shortest round-tripping `description`, `.0` dropped.
    public mutating func double(_ value: Double) {
        guard value.isFinite else {
            failed = true
            null()
            return
        }
        let text = value.description
        var utf8 = Array(text.utf8)
        if utf8.count >= 2, utf8[utf8.count - 2] == UInt8(ascii: "."), utf8[utf8.count - 1] == UInt8(ascii: "0") {
            utf8.removeLast(2)
        }
        append(contentsOf: utf8)
    }

    /// A string, quoted and escaped as `JSONEncoder` escapes it.
    public mutating func string(_ value: String) {
        // In place for a native string (nearly every one); `withUTF8` on a copy otherwise.
        if value.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) == nil {
            var value = value
            value.withUTF8 { appendEscaped($0) }
        }
    }

    private static let hex: StaticString = "0123456789abcdef"

    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        let count = utf8.count
        // The most it can take: quotes, and six bytes (\u00XX) for every byte.
        let start = room(2 + 6 * count)
        var at = start
        at.pointee = UInt8(ascii: "\"")
        at += 1
        var runStart = 0
        var index = 0
        if let base = utf8.baseAddress {
            while index < count {
                // Eight bytes at a time while none needs escaping; at a word that holds one, straight to it.
                if count - index >= 8 {
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                    let special = JSONSpecialBytes.of(word)
                    if special == 0 {
                        index += 8
                        continue
                    }
                    index += special.trailingZeroBitCount / 8
                }
                let byte = base[index]
                if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                if runStart < index {
                    at.update(from: base + runStart, count: index - runStart)
                    at += index - runStart
                }
                at[0] = UInt8(ascii: "\\")
                switch byte {
                case UInt8(ascii: "\""): at[1] = UInt8(ascii: "\""); at += 2
                case UInt8(ascii: "\\"): at[1] = UInt8(ascii: "\\"); at += 2
                case 0x08: at[1] = UInt8(ascii: "b"); at += 2
                case 0x09: at[1] = UInt8(ascii: "t"); at += 2
                case 0x0A: at[1] = UInt8(ascii: "n"); at += 2
                case 0x0C: at[1] = UInt8(ascii: "f"); at += 2
                case 0x0D: at[1] = UInt8(ascii: "r"); at += 2
                default:
                    at[1] = UInt8(ascii: "u")
                    at[2] = UInt8(ascii: "0")
                    at[3] = UInt8(ascii: "0")
                    Self.hex.withUTF8Buffer { hex in
                        at[4] = hex[Int(byte >> 4)]
                        at[5] = hex[Int(byte & 0x0F)]
                    }
                    at += 6
                }
                index += 1
                runStart = index
            }
            if runStart < count {
                at.update(from: base + runStart, count: count - runStart)
                at += count - runStart
            }
        }
        at.pointee = UInt8(ascii: "\"")
        at += 1
        commit(at - start)
    }

    // MARK: - Compound values the generated code writes

    /// An array of strings.
    public mutating func strings(_ values: [String]) {
        beginArray()
        for value in values {
            element()
            string(value)
        }
        endArray()
    }

    /// An array of integers.
    public mutating func ints(_ values: [Int]) {
        beginArray()
        for value in values {
            element()
            int(value)
        }
        endArray()
    }

    /// An object of strings (`wipe_cameras`), keys sorted.
    public mutating func stringDictionary(_ values: [String: String]) {
        beginObject()
        for (key, value) in values.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            self.key(escaping: key)
            string(value)
        }
        endObject()
    }

    /// Any JSON value, objects with their keys sorted. A number is written as `JSONValue.encode(to:)` has
    /// `JSONEncoder` write it: its digits when they are an `Int64` or `UInt64`, else through `JSONEncoder`.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let bool): self.bool(bool)
        case .string(let string): self.string(string)
        case .number(let digits): number(digits)
        case .array(let elements):
            beginArray()
            for element in elements {
                self.element()
                self.value(element)
            }
            endArray()
        case .object(let members): object(members)
        }
    }

    /// An object of JSON values, keys sorted.
    public mutating func object(_ members: [String: JSONValue]) {
        beginObject()
        for (key, member) in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            self.key(escaping: key)
            value(member)
        }
        endObject()
    }

    private mutating func number(_ digits: String) {
        var digits = digits
        // Most numbers are integers written as `Int64` would print them: their bytes as they are, not parsed and
        // printed again.
        let copied = digits.withUTF8 { utf8 -> Bool in
            guard Self.isPlainInteger(utf8) else { return false }
            append(utf8)
            return true
        }
        if copied { return }
        if let int = Int64(digits) {
            self.int(Int(int))
        } else if let uint = UInt64(digits) {
            append(contentsOf: String(uint).utf8)
        } else if let decimal = Decimal(string: digits) {
            // A fraction, an exponent or digits beyond UInt64, which `JSONValue.encode(to:)` encodes as a
            // `Decimal` when one holds it: `JSONEncoder` writes a Decimal as its `description` (pinned by
            // `CanonicalJSONWriterTests`), and going through it costs microseconds a number.
            append(contentsOf: decimal.description.utf8)
        } else {
            // Beyond Decimal's range: a Double, as `JSONValue.encode(to:)` then encodes it.
            double(Double(digits) ?? 0)
        }
    }

    /// `-?(0|[1-9][0-9]{0,17})` but not `-0`: an integer that `Int64` holds and prints as these very bytes.
    static func isPlainInteger(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        if index < utf8.count, utf8[index] == UInt8(ascii: "-") { index += 1 }
        let digits = utf8.count - index
        guard digits >= 1, digits <= 18 else { return false }
        let first = utf8[index]
        if first == UInt8(ascii: "0") { return digits == 1 && index == 0 }
        for byte in utf8[index...] where byte < UInt8(ascii: "0") || byte > UInt8(ascii: "9") { return false }
        return true
    }

    /// `value` as `JSONEncoder` (`.sortedKeys`, `.withoutEscapingSlashes`) encodes it; `failed` when it throws.
    public mutating func appendEncoded(_ value: some Encodable) {
        guard let data = try? CanonicalJSONWriter.encoder.encode(value) else {
            failed = true
            null()
            return
        }
        append(contentsOf: data)
    }

    /// A payload that cannot write itself, with the message's `t` among its keys, as `BCResponse.encode(to:)`
    /// has `JSONEncoder` write them.
    public mutating func appendEncoded(_ payload: some Encodable, t: Int?) {
        appendEncoded(TaggedPayload(t: t, payload: payload))
    }

    /// The encoder whose output this writer reproduces.
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension BCResponse.Unknown {
    /// The whole message, keys sorted, as `encode(to:)` gives it.
    public func writeCanonicalJSON(into writer: inout CanonicalJSONWriter) {
        writer.object(json)
    }
}

extension BCResponse.EmomoQuestGift {
    /// `t` and every other key, sorted, as `BCResponse.encode(to:)` gives them.
    public func writeCanonicalJSON(into writer: inout CanonicalJSONWriter, t: Int? = nil) {
        var members = fields
        members.removeValue(forKey: BCResponse.TypeKey.t.stringValue)
        if let t { members[BCResponse.TypeKey.t.stringValue] = .number(String(t)) }
        writer.object(members)
    }
}

/// `t` and a payload's keys in one object, as `BCResponse.encode(to:)` writes them.
private struct TaggedPayload<Payload: Encodable>: Encodable {
    var t: Int?
    var payload: Payload

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: BCResponse.TypeKey.self)
        try container.encodeIfPresent(t, forKey: .t)
        try payload.encode(to: encoder)
    }
}
