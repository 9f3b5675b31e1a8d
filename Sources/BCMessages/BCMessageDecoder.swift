#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns the JSON of one bcsvr message into a `BCResponse`, or into a `BCDecodingError` that says precisely
/// what was wrong.
///
/// - Lenient mode (the default, for production): keys the model does not know are ignored and unknown kinds
///   are kept as `.unknown`.
/// - Strict mode (for tests and audits): an unknown kind, or any key the model does not know, is an error.
public struct BCMessageDecoder: Sendable {
    /// What the decoder does with kinds and keys the model does not know.
    public enum Mode: String, Hashable, Sendable, CaseIterable {
        /// Unknown kinds are kept as `.unknown` and unknown keys ignored: the production setting.
        case lenient
        /// An unknown kind, or any key the model does not know, is an error: for tests and audits.
        case strict
    }

    /// How the JSON is read. Both engines give equal values and equal errors; they differ only in speed.
    public enum Engine: String, Hashable, Sendable, CaseIterable {
        /// BCStream's own decoder: one pass over the UTF-8 bytes, no `DecodingError` built on the happy path.
        /// The default, everywhere.
        case fast
        /// Foundation's `JSONDecoder`: the reference the fast engine is tested against, and the benchmark's
        /// baseline.
        case foundation
    }

    /// Whether unknown kinds and keys are kept and ignored, or errors.
    public var mode: Mode
    /// Which JSON engine reads the text.
    public var engine: Engine

    /// A decoder; the defaults are the production ones: lenient, on the fast engine.
    public init(mode: Mode = .lenient, engine: Engine = .fast) {
        self.mode = mode
        self.engine = engine
    }

    /// Decodes one message from its JSON text.
    public func decode(_ text: String) throws(BCDecodingError) -> BCResponse {
        guard engine == .fast else { return try decode(Data(text.utf8)) }
        var text = text
        // Result, not a throwing closure: `withUTF8` does not carry typed throws through.
        let result = text.withUTF8 { bytes in
            Result { () throws(BCDecodingError) in try FastEngine.decode(bytes, mode: mode) }
        }
        return try result.get()
    }

    /// Decodes one message from its JSON bytes.
    public func decode(_ json: Data) throws(BCDecodingError) -> BCResponse {
        switch engine {
        case .fast:
            let result = json.withUnsafeBytes { raw in
                Result { () throws(BCDecodingError) in
                    try FastEngine.decode(raw.assumingMemoryBound(to: UInt8.self), mode: mode)
                }
            }
            return try result.get()
        case .foundation:
            return try decodeWithFoundation(json)
        }
    }

    private func decodeWithFoundation(_ json: Data) throws(BCDecodingError) -> BCResponse {
        let response: BCResponse
        do {
            response = try JSONDecoder().decode(BCResponse.self, from: json)
        } catch let error as DecodingError {
            throw Self.describe(error, in: json, raw: Self.foundationRaw(json), t: Self.foundationType(json))
        } catch {
            throw Self.failure(.malformedJSON, in: json, t: Self.foundationType(json), expected: "a JSON object",
                               found: "\(error)")
        }
        if mode == .strict {
            try Self.checkStrictly(response, json: json, raw: Self.foundationRaw(json)) { encoded in
                try? JSONDecoder().decode(JSONValue.self, from: encoded)
            }
        }
        return response
    }

    private static func foundationRaw(_ json: Data) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: json)
    }

    private static func foundationType(_ json: Data) -> Int? {
        (try? JSONDecoder().decode(TypeProbe.self, from: json))?.t
    }

    // MARK: - Strict mode

    /// Reports unknown kinds, and keys of the raw message that the decoded value does not encode back.
    /// `parse` reads the canonical encoding with the same engine that read the message.
    static func checkStrictly(_ response: BCResponse, json: Data, raw: JSONValue?,
                              parse: (Data) -> JSONValue?) throws(BCDecodingError) {
        if case .unknown(let unknown) = response {
            throw failure(.unknownKind, in: json, t: unknown.t, expected: "a kind of the catalogue",
                          found: "t=\(unknown.t)")
        }
        guard let raw, let encoded = try? JSONEncoder().encode(response), let canonical = parse(encoded)
        else { return }
        var unmodelled: [String] = []
        collectUnmodelledKeys(raw: raw, canonical: canonical, path: "", into: &unmodelled)
        guard !unmodelled.isEmpty else { return }
        var error = failure(.unmodelledKeys, in: json, t: response.t,
                            expected: "only keys the model knows",
                            found: unmodelled.map { "\"\($0)\"" }.joined(separator: ", "))
        error.unmodelledKeys = unmodelled
        throw error
    }

    /// Key paths present (and not null) in the raw message but absent from what the decoded value encodes to.
    private static func collectUnmodelledKeys(raw: JSONValue, canonical: JSONValue, path: String,
                                              into paths: inout [String]) {
        switch (raw, canonical) {
        case (.object(let rawMembers), .object(let members)):
            for key in rawMembers.keys.sorted() {
                guard let value = rawMembers[key], value != .null else { continue }
                let keyPath = path.isEmpty ? key : "\(path).\(key)"
                if let modelled = members[key] {
                    collectUnmodelledKeys(raw: value, canonical: modelled, path: keyPath, into: &paths)
                } else {
                    paths.append(keyPath)
                }
            }
        case (.array(let rawElements), .array(let elements)):
            for (index, (value, modelled)) in zip(rawElements, elements).enumerated() {
                collectUnmodelledKeys(raw: value, canonical: modelled, path: "\(path)[\(index)]", into: &paths)
            }
        default:
            break
        }
    }

    // MARK: - Errors

    private struct TypeProbe: Decodable {
        @OptionalForcibleInt var t: Int?
    }

    /// `t` is the message's, when it can be read (each engine reads it its own way).
    static func failure(_ reason: BCDecodingError.Reason, in json: Data, t: Int?, keyPath: String = "",
                        expected: String, found: String) -> BCDecodingError {
        let kind = t.map { BCType(rawValue: $0)?.name ?? "unknown" }
        return BCDecodingError(reason: reason, t: t, kind: kind, keyPath: keyPath, expected: expected,
                               found: found, excerpt: BCDecodingError.excerpt(of: String(decoding: json, as: UTF8.self)))
    }

    /// Maps a `DecodingError` to what a person needs; `raw` is the whole message as the engine read it (nil
    /// when it is not JSON every value of which can be read), `t` the message's kind number.
    static func describe(_ error: DecodingError, in json: Data, raw: JSONValue?, t: Int?) -> BCDecodingError {
        func failure(_ reason: BCDecodingError.Reason, in json: Data, keyPath: String = "", expected: String,
                     found: String) -> BCDecodingError {
            Self.failure(reason, in: json, t: t, keyPath: keyPath, expected: expected, found: found)
        }
        func value(at path: [any CodingKey]) -> JSONValue? {
            path.reduce(raw) { value, key in
                switch value {
                case .object(let members): members[key.stringValue]
                case .array(let elements): key.intValue.flatMap { elements.indices.contains($0) ? elements[$0] : nil }
                default: nil
                }
            }
        }
        guard case .object = raw else {
            let found = raw.map(describeValue) ?? describeMalformed(json)
            return failure(.malformedJSON, in: json, expected: "a JSON object", found: found)
        }
        switch error {
        case .typeMismatch(let type, let context):
            let expected = (type as? any ForcibleValue.Type)?.expectation ?? "a value of type \(type)"
            let found = value(at: context.codingPath).map(describeValue) ?? "nothing"
            return failure(.typeMismatch, in: json, keyPath: keyPath(context.codingPath),
                           expected: expected, found: found)
        case .valueNotFound(let type, let context):
            let expected = (type as? any ForcibleValue.Type)?.expectation ?? "a value of type \(type)"
            return failure(.nullValue, in: json, keyPath: keyPath(context.codingPath),
                           expected: expected, found: "null")
        case .keyNotFound(let key, let context):
            let path = context.codingPath + [key]
            if context.codingPath.isEmpty && key.stringValue == "t" {
                return failure(.missingType, in: json, keyPath: "t", expected: "an integer \"t\" naming the kind",
                               found: "no \"t\" key")
            }
            return failure(.missingKey, in: json, keyPath: keyPath(path),
                           expected: "the key \"\(key.stringValue)\"", found: "no such key")
        case .dataCorrupted(let context):
            let found = value(at: context.codingPath).map(describeValue) ?? context.debugDescription
            return failure(.typeMismatch, in: json, keyPath: keyPath(context.codingPath),
                           expected: context.debugDescription, found: found)
        @unknown default:
            return failure(.typeMismatch, in: json, expected: "a decodable message", found: "\(error)")
        }
    }

    /// Says how text that does not parse is broken: empty, cut off (the common case on a bad network), or
    /// otherwise invalid.
    static func describeMalformed(_ json: Data) -> String {
        var depth = 0
        var inString = false
        var escaped = false
        var sawContent = false
        for byte in json {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true }
                else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): continue
            default: break
            }
            sawContent = true
        }
        if !sawContent { return "an empty message" }
        if inString || depth > 0 { return "JSON cut off after \(json.count) bytes (truncated?)" }
        return "text that is not valid JSON"
    }

    /// `rankings[0].r` for the coding path rankings → 0 → r.
    static func keyPath(_ path: [any CodingKey]) -> String {
        path.reduce(into: "") { text, key in
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
    }

    static func describeValue(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let bool): String(bool)
        case .number(let digits): digits
        case .string(let string): string.count > 40 ? "\"\(string.prefix(40))…\"" : "\"\(string)\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}
