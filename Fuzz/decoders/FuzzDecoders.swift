// The libFuzzer target of BCMessages: the fast engine and Foundation's engine must agree on every input.
//
// Built by Fuzz/run.sh against BCMessages compiled for testing (`@testable import`), so that it can use the
// module's internals (FastEngine, TapeDocument) without a change to Package.swift.
//
// For each input, in lenient and strict mode: both engines decode it to equal `BCResponse` values, or both fail
// with equal `BCDecodingError`s (reason, t, kind, key path, expected, found, unmodelled keys, excerpt): what
// FastEngineEquivalenceTests holds the engines to. Decoding the input as a String gives what decoding its
// bytes gives, when the bytes are UTF-8. A disagreement prints both outcomes and traps, which libFuzzer
// reports as a crash and saves the input for.

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
@testable import BCMessages

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzDecoders.check(Data(bytes: data, count: size))
    return 0
}

enum FuzzDecoders {
    static func check(_ json: Data) {
        // Foundation's scanner traps, instead of throwing, on a text whose last character is the `[` of a 513th
        // nested container (see JSONText.foundationMayTrap): it must not be given such input. The fast engine
        // must still give the malformed-JSON error Foundation gives every other malformed text.
        let foundationMayTrap = json.withUnsafeBytes {
            JSONText.foundationMayTrap($0.assumingMemoryBound(to: UInt8.self))
        }
        // The one documented difference (docs/DESIGN.md, "Every scalar is forcible"): an integer literal of more
        // than 38 digits keeps every digit through the fast engine, which hands ForcibleString the literal text,
        // and 38 significant digits through JSONDecoder, which goes through Decimal. Excused only for a text that
        // holds such a number token (as the fast engine's scanner reads it), and only the comparison with
        // Foundation: the fast engine still runs on it, in both modes and from a String.
        let hasLongInteger = containsIntegerLiteralLongerThan38Digits(json)
        // Not a difference but a cost: JSONDecoder's time grows with the cube of the nesting depth (each of its
        // failed probes builds a coding path, and `JSONValue(from:)` probes at every level), about a second per
        // input at depth 256 and several at 512 in this instrumented build, which would set off libFuzzer's
        // timeout on Foundation's account. So texts nested deeper than 128 are not compared with it; the fast
        // engine still decodes them (its work is linear in the depth), and FastEngineHostileKeyTests compares
        // both engines at depths 510 to 513 and on errors 400 deep.
        let tooDeepForFoundation = nestingDepth(json) > 128
        for mode in BCMessageDecoder.Mode.allCases {
            let fast = outcome(json, mode: mode, engine: .fast)
            if let text = String(validating: json, as: UTF8.self) {
                let fromText = Result { () throws(BCDecodingError) in
                    try BCMessageDecoder(mode: mode, engine: .fast).decode(text)
                }
                if fromText != fast { disagree("decode(String) and decode(Data)", mode, json, fromText, fast) }
            }
            if foundationMayTrap {
                let malformed = BCMessageDecoder.failure(.malformedJSON, in: json, t: nil, expected: "a JSON object",
                                                         found: BCMessageDecoder.describeMalformed(json))
                if fast != .failure(malformed) {
                    disagree("fast engine and the malformed-JSON error", mode, json, fast, .failure(malformed))
                }
                continue
            }
            if hasLongInteger || tooDeepForFoundation { continue }
            let foundation = outcome(json, mode: mode, engine: .foundation)
            if fast != foundation, !differOnlyInWhichBadValueOfADictionary(fast, foundation) {
                disagree("fast engine and Foundation engine", mode, json, fast, foundation)
            }
        }
    }

    static func outcome(_ json: Data, mode: BCMessageDecoder.Mode,
                        engine: BCMessageDecoder.Engine) -> Result<BCResponse, BCDecodingError> {
        Result { () throws(BCDecodingError) in try BCMessageDecoder(mode: mode, engine: engine).decode(json) }
    }

    /// JSONDecoder hands a dictionary its keys in the order of a Swift `Dictionary`, which depends on hash seeds
    /// (per process and per instance); the fast engine hands them over in document order. So when an object
    /// decoded as a dictionary holds more than one bad value, the engines may report different ones, and
    /// JSONDecoder does not always report the same one (docs/DESIGN.md, "Fuzzing"). Excused when both engines
    /// fail alike (the same t, kind, excerpt and unmodelled keys) and the errors are about values of an object
    /// decoded as a dictionary: any object of a message kept whole as JSON (an unknown kind, EmomoQuestGift), or
    /// `avatar.wipe_cameras`.
    static func differOnlyInWhichBadValueOfADictionary(
        _ left: Result<BCResponse, BCDecodingError>, _ right: Result<BCResponse, BCDecodingError>
    ) -> Bool {
        guard case .failure(let a) = left, case .failure(let b) = right,
              a.t == b.t, a.kind == b.kind, a.excerpt == b.excerpt, a.unmodelledKeys == b.unmodelledKeys,
              let t = a.t, !a.keyPath.isEmpty, !b.keyPath.isEmpty
        else { return false }
        let type = BCType(rawValue: t)
        if type == nil || type == .emomoQuestGift { return true }
        func inWipeCameras(_ keyPath: String) -> Bool {
            let prefix = "avatar.wipe_cameras"
            return keyPath.hasPrefix(prefix + ".") || keyPath.hasPrefix(prefix + "[")
        }
        return type == .avatar && inWipeCameras(a.keyPath) && inWipeCameras(b.keyPath)
    }

    /// Whether the JSON text of `json` (as both engines read it: `JSONText`) holds a number token that is an
    /// integer literal (`-?[0-9]+`) of more than 38 digits.
    static func containsIntegerLiteralLongerThan38Digits(_ json: Data) -> Bool {
        json.withUnsafeBytes { raw in
            JSONText.withText(of: raw.assumingMemoryBound(to: UInt8.self)) { text in
                guard let text, let document = TapeDocument.scan(text) else { return false }
                for index in 0..<document.entries.count {
                    let entry = document.entries[index]
                    guard entry.kind == .number, entry.flags & TapeEntry.integerLiteral != 0 else { continue }
                    let token = document.token(at: Int32(index))
                    let digits = token.count - (token.first == UInt8(ascii: "-") ? 1 : 0)
                    if digits > 38 { return true }
                }
                return false
            }
        }
    }

    /// How deeply the JSON text of `json` nests arrays and objects (0 when it is not JSON: Foundation's scanner
    /// then stops before decoding anything).
    static func nestingDepth(_ json: Data) -> Int {
        json.withUnsafeBytes { raw in
            JSONText.withText(of: raw.assumingMemoryBound(to: UInt8.self)) { text in
                guard let text, let document = TapeDocument.scan(text) else { return 0 }
                var ends: [Int32] = []  // the end of each container around the current entry
                var deepest = 0
                for index in 0..<Int32(document.entries.count) {
                    while let end = ends.last, end <= index { ends.removeLast() }
                    let entry = document.entries[Int(index)]
                    if entry.kind == .object || entry.kind == .array {
                        ends.append(entry.a)
                        deepest = max(deepest, ends.count)
                    }
                }
                return deepest
            }
        }
    }

    static func disagree(_ what: String, _ mode: BCMessageDecoder.Mode, _ json: Data,
                         _ left: Result<BCResponse, BCDecodingError>, _ right: Result<BCResponse, BCDecodingError>) -> Never {
        func describe(_ result: Result<BCResponse, BCDecodingError>) -> String {
            switch result {
            case .success(let response): "value \(response)"
            case .failure(let error): "error \(error) \(error.reason) t=\(String(describing: error.t)) "
                + "keyPath=\(error.keyPath) unmodelled=\(error.unmodelledKeys)"
            }
        }
        let text = String(decoding: json.prefix(300), as: UTF8.self)
        fatalError("""
            \(what) disagree (\(mode) mode) on \(json.count) bytes: \(text.debugDescription)
              first:  \(describe(left))
              second: \(describe(right))
            """)
    }
}
