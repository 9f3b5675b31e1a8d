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
        // UTF-16 and UTF-32 are transcoded as JSONDecoder transcodes them, never handed to it: its decoding takes
        // time cubic in the nesting depth (a second for 2 KB nested 511 deep), and it traps on some such text.
        let result = JSONText.withText(of: bytes) { text -> Result<BCResponse, BCDecodingError> in
            Result { () throws(BCDecodingError) in
                guard let text else { throw malformed(bytes) }
                return try decode(text: text, message: bytes, mode: mode)
            }
        }
        return try result.get()
    }

    /// Decodes `text`, the message as UTF-8 without a byte order mark (what Foundation's JSON scanner reads).
    /// Errors quote `message`, the bytes as given, as the Foundation engine's errors do.
    private static func decode(
        text: UnsafeBufferPointer<UInt8>, message: UnsafeBufferPointer<UInt8>, mode: BCMessageDecoder.Mode
    ) throws(BCDecodingError) -> BCResponse {
        guard let lent = TapeDocument.lend(scanning: text) else { throw malformed(message) }
        defer { lent.giveBack() }
        let result = lent.document._withUnsafeGuaranteedRef { document in
            Result { () throws(BCDecodingError) in try decode(document, message: message, mode: mode) }
        }
        return try result.get()
    }

    /// Decodes the scanned `document` of `message`.
    private static func decode(
        _ document: TapeDocument, message: UnsafeBufferPointer<UInt8>, mode: BCMessageDecoder.Mode
    ) throws(BCDecodingError) -> BCResponse {
        let response: BCResponse
        do {
            // `if`, not `??`: the autoclosure held the document, a retain and a release per message.
            if let direct = extractDirectly(document) {
                response = direct
            } else {
                response = try BCResponse(from: TapeDecoder(document: document, index: 0))
            }
        } catch let error as DecodingError {
            let json = Data(message)
            throw BCMessageDecoder.describe(error, in: json, raw: try? document.jsonValue(at: 0),
                                            t: typeNumber(of: document))
        } catch {
            let json = Data(message)
            throw BCMessageDecoder.failure(.malformedJSON, in: json, t: typeNumber(of: document),
                                           expected: "a JSON object", found: "\(error)")
        }
        if mode == .strict {
            let raw = try? document.jsonValue(at: 0)
            try BCMessageDecoder.checkStrictly(response, json: Data(message), raw: raw) { encoded in
                encoded.withUnsafeBytes { raw in
                    TapeDocument.scan(raw.assumingMemoryBound(to: UInt8.self)).flatMap { try? $0.jsonValue(at: 0) }
                }
            }
        }
        return response
    }

    /// The error for a message that is not JSON (or not text), as the Foundation engine words it.
    static func malformed(_ message: UnsafeBufferPointer<UInt8>) -> BCDecodingError {
        let json = Data(message)
        return BCMessageDecoder.failure(.malformedJSON, in: json, t: nil, expected: "a JSON object",
                                        found: BCMessageDecoder.describeMalformed(json))
    }

    /// The hot kinds read straight off the tape, as `BCResponse(from:)` would read them; nil for other kinds and
    /// for any message the direct path cannot take whole (which then goes through `init(from:)`).
    static func extractDirectly(_ document: TapeDocument) -> BCResponse? {
        guard let object = try? TapeObject(Unmanaged.passUnretained(document), at: 0), let t = object.typeNumber()
        else { return nil }
        guard let type = BCType(rawValue: t) else {
            return (try? BCResponse.Unknown(tape: object, t: t)).map(BCResponse.unknown)
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
}

// MARK: - For tests

extension FastEngine {
    /// Decodes any `Decodable` from JSON with the fast engine's `Decoder` (for the scalar equivalence tests).
    /// A text that does not scan throws `TapeScanError`.
    static func decodeValue<T: Decodable>(_ type: T.Type, from json: Data) throws -> T {
        try json.withUnsafeBytes { raw in try decodeValue(type, from: raw.assumingMemoryBound(to: UInt8.self)) }
    }

    static func decodeValue<T: Decodable>(_ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>) throws -> T {
        guard let document = TapeDocument.scan(bytes) else { throw TapeScanError() }
        return try document.decode(type, at: 0)
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
            JSONText.withText(of: raw.assumingMemoryBound(to: UInt8.self)) { text in
                guard let text, let document = TapeDocument.scan(text) else { return 0 }
                if extractDirectly(document) == nil {
                    _ = try? BCResponse(from: TapeDecoder(document: document, index: 0))
                }
                return document.work
            }
        }
    }
}
