#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `BCMessageDecoder`'s default engine: scan the bytes once into a tape, then run `BCResponse(from:)` over a
/// `TapeDecoder`. It gives what the Foundation engine gives, value for value and error for error (the
/// equivalence tests hold it to that); only the work differs.
enum FastEngine {
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, mode: BCMessageDecoder.Mode
    ) throws(BCDecodingError) -> BCResponse {
        if isUTF16OrUTF32(bytes) {
            // JSONDecoder transcodes such text first; so little traffic is not UTF-8 that it goes to Foundation.
            return try BCMessageDecoder(mode: mode, engine: .foundation).decode(Data(bytes))
        }
        let text = withoutByteOrderMark(bytes)
        guard let document = TapeDocument.scan(text) else {
            let json = Data(bytes)
            throw BCMessageDecoder.failure(.malformedJSON, in: json, t: nil, expected: "a JSON object",
                                           found: BCMessageDecoder.describeMalformed(json))
        }
        let response: BCResponse
        do {
            response = try extractDirectly(document) ?? BCResponse(from: TapeDecoder(document: document, index: 0))
        } catch let error as DecodingError {
            let json = Data(bytes)
            throw BCMessageDecoder.describe(error, in: json, raw: try? document.jsonValue(at: 0),
                                            t: typeNumber(of: document))
        } catch {
            let json = Data(bytes)
            throw BCMessageDecoder.failure(.malformedJSON, in: json, t: typeNumber(of: document),
                                           expected: "a JSON object", found: "\(error)")
        }
        if mode == .strict {
            let raw = try? document.jsonValue(at: 0)
            try BCMessageDecoder.checkStrictly(response, json: Data(bytes), raw: raw) { encoded in
                encoded.withUnsafeBytes { raw in
                    TapeDocument.scan(raw.assumingMemoryBound(to: UInt8.self)).flatMap { try? $0.jsonValue(at: 0) }
                }
            }
        }
        return response
    }

    /// The hot kinds read straight off the tape, as `BCResponse(from:)` would read them; nil for other kinds and
    /// for any message the direct path cannot take whole (which then goes through `init(from:)`).
    static func extractDirectly(_ document: TapeDocument) -> BCResponse? {
        guard let object = try? TapeObject(document, at: 0),
              let index = document.value(forKey: "t", in: object.table),
              document.entries[Int(index)].kind != .null,
              let t = document.forceInt(at: index)
        else { return nil }
        guard let type = BCType(rawValue: t) else {
            return (try? BCResponse.Unknown(tape: object)).map(BCResponse.unknown)
        }
        return try? BCResponse.extractDirectly(type, from: object)
    }

    /// The message's `t` as an optional forcible Int reads it (nil when absent, null or unreadable).
    static func typeNumber(of document: TapeDocument) -> Int? {
        guard document.entries[0].kind == .object, !document.memberTable(of: 0).hasInvalidKey,
              let index = document.value(forKey: "t", in: document.memberTable(of: 0)),
              document.entries[Int(index)].kind != .null
        else { return nil }
        return document.forceInt(at: index)
    }

    /// Text that starts with a UTF-16 or UTF-32 byte order mark, or with a zero byte (UTF-16/32 without one).
    static func isUTF16OrUTF32(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 2 else { return false }
        return bytes[0] == 0 || bytes[1] == 0
            || (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE)
    }

    static func withoutByteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF else { return bytes }
        return UnsafeBufferPointer(rebasing: bytes[3...])
    }
}

// MARK: - For tests

extension FastEngine {
    /// Decodes any `Decodable` from JSON with the fast engine's `Decoder` (for the scalar equivalence tests).
    /// A text that does not scan throws `TapeScanError`.
    static func decodeValue<T: Decodable>(_ type: T.Type, from json: Data) throws -> T {
        try json.withUnsafeBytes { raw in
            guard let document = TapeDocument.scan(raw.assumingMemoryBound(to: UInt8.self)) else {
                throw TapeScanError()
            }
            return try document.decode(type, at: 0)
        }
    }

    /// The message read both ways the engine can: by direct extraction (nil when the kind has none or the
    /// message is irregular) and through `init(from:)` over the tape.
    /// With each, the keys it looked up (as "object index:key").
    static func bothPaths(_ json: Data) -> (direct: BCResponse?, generic: BCResponse?, directKeys: Set<String>,
                                            genericKeys: Set<String>) {
        json.withUnsafeBytes { raw in
            guard let document = TapeDocument.scan(raw.assumingMemoryBound(to: UInt8.self)),
                  let again = TapeDocument.scan(raw.assumingMemoryBound(to: UInt8.self))
            else { return (nil, nil, [], []) }
            document.lookedUp = []
            again.lookedUp = []
            let generic = try? BCResponse(from: TapeDecoder(document: document, index: 0))
            let direct = extractDirectly(again)
            return (direct, generic, again.lookedUp ?? [], document.lookedUp ?? [])
        }
    }

    /// How much work decoding `json` takes beyond the scan (which looks at each byte a bounded number of times):
    /// members hashed and compared, bytes unescaped. Tests use it to check that decoding stays linear.
    static func work(decoding json: Data, mode: BCMessageDecoder.Mode = .lenient) -> Int {
        json.withUnsafeBytes { raw in
            guard let document = TapeDocument.scan(raw.assumingMemoryBound(to: UInt8.self)) else { return 0 }
            if extractDirectly(document) == nil {
                _ = try? BCResponse(from: TapeDecoder(document: document, index: 0))
            }
            return document.work
        }
    }
}
