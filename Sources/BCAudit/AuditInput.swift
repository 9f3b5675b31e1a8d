/// Where a line of input came from: `live.ndjson:12`.
public struct AuditLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The input's name (a path as given, `stdin`, `live`).
    public var source: String
    /// The line, from 1.
    public var line: Int

    /// Line `line` (from 1) of `source`.
    public init(source: String, line: Int) {
        self.source = source
        self.line = line
    }

    public var description: String { "\(source):\(line)" }
}

/// What one line of a capture holds, for `bcstream audit` and `bcstream fixture add`. One file may mix the shapes:
///
/// ```
/// {"t":23,"online_viewer_num":44}                                  → a wire message (bare JSON)
/// MSG\t118f91f:UdoBre1M\t{"t":8}                                    → a wire message, as bcsvr sends it
/// ACK, ERR\tbad key, PING, SUB\tk:1                                 → a bcsvr line that is no message: skipped
/// {"key":"k:1","text":"MSG\tk:1\t{…}","time":"…"}                  → a recorded frame (`listen --record`):
///                                                                     the bcsvr lines of its text, as above
/// {"binary":true,"bytes":"AAEC","key":"k:1","time":"…"}             → a bad line: a frame without text
/// {"t":35,"kind":"gift","key":"k:1","message":{…}}                  → a line of `listen --format ndjson`: the
///                                                                     model's re-encoding, not the wire's text
/// {"t":200,"kind":"unknown","raw":{…}}                              → the same for an unknown kind: its keys
/// {"t":35,"kind":"gift","error":"…","raw":"{…}"}                    → the same for a message that failed: the
///                                                                     wire text it kept
/// ```
///
/// The same reading as `bcstream decode`'s, written again here over the audit's own parser so that this target
/// needs nothing beyond `BCMessages` (the decode command reads through `BCListener`).
public enum AuditInput: Hashable, Sendable {
    /// A message's JSON text exactly as received, and the channel key of the `MSG` line that carried it.
    case wire(json: String, key: String?)
    /// A message of a log of `listen --format ndjson` that only kept the model's re-encoding: its keys are the
    /// model's, so it is counted but its keys are not compared.
    case reencoded(t: Int, kind: String)
    /// The keys of an unknown kind as a log of `listen --format ndjson` kept them (`raw`, re-encoded: key order
    /// and escapes are not the wire's, the keys and types are).
    case reencodedUnknown(json: String)
    /// An answer of the comments API (`{"status":…,"comments":[…]}`, no `t`): audited against `BacklogComment`.
    case backlogAnswer(json: String)
    /// A backlog comment of a log of `listen --format ndjson` (`"kind":"backlogComment"`): the model's re-encoding.
    case backlogReencoded
    /// A bcsvr line that carries no message (`ACK`, `ERR…`, `PING`).
    case skipped
    /// A line that was meant as input but cannot be read: why, in words.
    case bad(reason: String)

    /// What one line holds (without its line break): nothing for a blank line, several items for a recorded
    /// frame whose text holds several bcsvr lines.
    public static func detect(_ line: String) -> [AuditInput] {
        let trimmed = trimmed(line)
        guard !trimmed.isEmpty else { return [] }
        guard trimmed.hasPrefix("{") else { return [bcsvrLine(trimmed)] }
        guard let value = try? AuditJSON.parse(trimmed), case .object = value else {
            return [.wire(json: trimmed, key: nil)]  // the audit says why it is not JSON
        }
        if value["t"] == nil, case .string? = value["time"], case .string? = value["key"] {
            return recordedFrame(value)
        }
        if value["t"] == nil, case .array? = value["comments"] { return [.backlogAnswer(json: trimmed)] }
        // A line of `listen --format ndjson` (or `decode --format ndjson`): only its own keys, and what it kept.
        if case .object(let members, _) = value, members.allSatisfy({ logKeys.contains($0.key) }) {
            if case .string("backlogComment", _)? = value["kind"], case .object? = value["message"] {
                return [.backlogReencoded]
            }
            if case .object? = value["message"], case .number(let range)? = value["t"],
               let t = Int(String(decoding: Array(trimmed.utf8)[range], as: UTF8.self)) {
                let kind: String = if case .string(let kind, _)? = value["kind"] { kind } else { "" }
                return [.reencoded(t: t, kind: kind)]
            }
            // A message that failed keeps its wire text; the line is read as that text was.
            if case .string(let raw, _)? = value["raw"], raw.utf8.count < trimmed.utf8.count {
                return detect(raw)
            }
            if let raw = value["raw"], case .object = raw {
                return [.reencodedUnknown(json: String(decoding: Array(trimmed.utf8)[raw.range], as: UTF8.self))]
            }
        }
        return [.wire(json: trimmed, key: nil)]
    }

    /// The keys of a line of `listen --format ndjson` and `decode --format ndjson`.
    static let logKeys: Set<String> = ["t", "kind", "key", "source", "error", "raw", "message", "backlog"]

    private static func trimmed(_ line: String) -> String {
        let scalars = line.unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    /// A frame recorded by `listen --record`: the bcsvr lines of its text, or why it has none.
    private static func recordedFrame(_ frame: AuditJSON) -> [AuditInput] {
        if case .string(let refused, _)? = frame["refused"] {
            return [.bad(reason: "a recorded message the listener refused (\(refused))")]
        }
        guard case .string(let text, _)? = frame["text"] else {
            if case .boolean? = frame["binary"] { return [.bad(reason: "a recorded binary frame; bcsvr sends text")] }
            return [.bad(reason: "a recorded frame without text (bytes that are not UTF-8)")]
        }
        return text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { String($0) }
            .filter { !$0.isEmpty }
            .map(bcsvrLine)
    }

    /// One bcsvr line, or bare JSON inside a recorded frame's text.
    private static func bcsvrLine(_ line: String) -> AuditInput {
        if line.hasPrefix("{") { return .wire(json: line, key: nil) }
        if line == "MSG" || line.hasPrefix("MSG\t") {
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { return .bad(reason: "a MSG line without both a key and a JSON field") }
            return .wire(json: String(fields[2]), key: String(fields[1]))
        }
        let word = line.utf8.prefix { $0 != UInt8(ascii: "\t") }
        let isCommand = word.first.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) } == true
            && word.allSatisfy {
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || $0 == UInt8(ascii: "_")
            }
        return isCommand ? .skipped : .wire(json: line, key: nil)
    }
}

extension AuditInput {
    /// The `t` of a message's JSON text (a number or a numeric string), or nil when it has none or is not JSON.
    public static func kind(ofMessage json: String) -> Int? {
        let bytes = Array(json.utf8)
        guard let message = try? AuditJSON.parse(bytes) else { return nil }
        switch message["t"] {
        case .number(let range)?: return Int(String(decoding: bytes[range], as: UTF8.self))
        case .string(let text, _)?: return Int(text)
        default: return nil
        }
    }
}
