#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The errors a decode throws, worded and located (their coding path) as Foundation's `JSONDecoder` has them.
extension TapeDocument {
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
                work += 1
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
