#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `JSONValue` read off the tape, as `JSONValue(from:)` reads it through a decoder.
extension TapeDocument {
    /// `JSONValue(from:)` over this document, without probing: the same value, or an error where
    /// `JSONValue(from:)` fails (a value no decode accepts: an unreadable string, a number no Double holds).
    func jsonValue(at index: Int32) throws -> JSONValue {
        var failure = index
        if let value = jsonValue(at: index, failure: &failure) { return value }
        // Built once, for the value that fails: each array around a bad value fails too, and a coding path is a
        // walk from the top, so an error per level would cost the square of the depth.
        throw mismatch([String: Any].self, at: failure, "Expected to decode Dictionary<String, Any>")
    }

    /// The value, or nil with `failure` set to where `JSONValue(from:)` throws its type mismatch.
    private func jsonValue(at index: Int32, failure: inout Int32) -> JSONValue? {
        let entry = entries[Int(index)]
        switch entry.kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .string:
            if let string = string(at: index) { return .string(string) }
        case .number:
            // A short plain integer is valid JSON, always a finite Double, and its digits are what `forceString`
            // writes: taken as they are, not also parsed as a Double.
            if let digits = shortIntegerText(at: index) { return .number(digits) }
            if double(at: index) != nil, let digits = forceString(at: index) { return .number(digits) }
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(Int(entry.b))
            var element = index + 1
            for _ in 0..<entry.b {
                // JSONValue tries `[JSONValue]` with `try?`, so a bad element fails the array as a whole, and it
                // goes on to try an object: the array's own mismatch.
                guard let value = jsonValue(at: element, failure: &failure) else { break }
                elements.append(value)
                element = next(after: element)
            }
            if elements.count == Int(entry.b) { return .array(elements) }
        case .object:
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(Int(entry.b))
            var key = index + 1
            var keysReadable = true
            for _ in 0..<entry.b {
                guard let name = string(at: key) else {
                    keysReadable = false
                    break
                }
                // The first of duplicate keys wins, and a later duplicate is as if it had not been. Duplicates are
                // rare, so each value is read and its key hashed once (`updateValue`); a duplicate found then is
                // undone, and a bad value fails the object only when its key is not a duplicate.
                let before = failure
                if let value = jsonValue(at: key + 1, failure: &failure) {
                    if let first = members.updateValue(value, forKey: name) { members[name] = first }
                } else {
                    guard members[name] != nil else { return nil }  // a bad member's own error goes up as it is
                    failure = before
                }
                key = next(after: key + 1)
            }
            if keysReadable { return .object(members) }
        }
        failure = index
        return nil
    }
}
