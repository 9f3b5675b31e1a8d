import BCMessages
import Foundation

/// How a decoded message, an unknown kind or a failure is printed: one line each, as readable text or as
/// NDJSON (`{"t":35,"kind":"gift","message":{…}}`). Shared by `decode`, `listen`, `replay` and `demo`, so
/// every command prints a message the same way.
///
/// A text line is always one line that a terminal shows as it is: the controls and bidi controls of the
/// text it quotes are written as escapes (`TerminalText`). NDJSON needs no such care: the encoder escapes
/// the controls, and the rest is inert inside a JSON string.
public struct MessageFormatter: Sendable {
    /// How lines are written.
    public enum Format: String, CaseIterable, Sendable {
        /// One readable line per message: `t=35   gift                 Taro sent …`.
        case text
        /// One JSON object per line: `{"t":35,"kind":"gift","message":{…}}`.
        case ndjson
    }

    /// How this formatter writes its lines.
    public let format: Format

    /// A formatter that writes its lines in `format`.
    public init(format: Format) {
        self.format = format
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// One line for a message that decoded (a known kind or `.unknown`). `raw` is the message text. A `backlog`
    /// message (a recent comment fetched from the API, not received live) is marked: `[backlog]` before the
    /// text, `"backlog":true` in NDJSON.
    public func line(for response: BCResponse, raw: String, key: String? = nil, backlog: Bool = false) -> String {
        switch format {
        case .text:
            // The summary quotes names and comments as received: this is where they meet the terminal.
            return TerminalText.escaped(
                "\(Self.padded("t=\(response.t)", 6)) \(Self.padded(response.kind, Self.kindWidth)) "
                    + (backlog ? Self.backlogMark + " " : "") + response.summary)
        case .ndjson:
            return ndjsonLine(for: response, key: key, backlog: backlog).text
        }
    }

    /// The NDJSON line of a decoded message, as UTF-8 bytes: what `listen` appends to its output buffer as it is.
    ///
    /// Written directly (`CanonicalJSONWriter`, the generated `writeCanonicalJSON(into:)`), byte for byte the line
    /// `encodedLine` builds with `JSONEncoder` at a fraction of the cost; that one stays for the values the writer
    /// cannot vouch for (a non-finite double, which `JSONEncoder` refuses).
    func ndjsonLine(for response: BCResponse, key: String?, backlog: Bool = false) -> MessageLine {
        var writer = CanonicalJSONWriter()
        return writeNDJSONLine(for: response, key: key, backlog: backlog, into: &writer)
            ? .utf8(writer.bytes) : .text(Self.encodedLine(for: response, key: key, backlog: backlog))
    }

    /// Writes `ndjsonLine`'s bytes into `writer` (emptied first), so that a caller printing many lines reuses one
    /// buffer; false when the writer cannot vouch for them, and `encodedLine` must be used instead.
    func writeNDJSONLine(for response: BCResponse, key: String?, backlog: Bool = false,
                         into writer: inout CanonicalJSONWriter) -> Bool {
        writer.reset()
        writer.raw("{\"t\":")
        writer.int(response.t)
        writer.raw(",\"kind\":")
        writer.string(response.kind)
        if let key {
            writer.raw(",\"key\":")
            writer.string(key)
        }
        if backlog { writer.raw(",\"backlog\":true") }
        if case .unknown(let unknown) = response {
            writer.raw(",\"raw\":")
            writer.object(unknown.json)
        } else {
            writer.raw(",\"message\":")
            response.writeCanonicalPayloadJSON(into: &writer)
        }
        writer.raw("}")
        return !writer.failed
    }

    /// What marks a backlog message in text output.
    static let backlogMark = "[backlog]"

    /// The NDJSON line of a decoded message, built with `JSONEncoder`.
    static func encodedLine(for response: BCResponse, key: String?, backlog: Bool = false) -> String {
        var fields = ["\"t\":\(response.t)", "\"kind\":\(Self.quoted(response.kind))"]
        if let key { fields.append("\"key\":\(Self.quoted(key))") }
        if backlog { fields.append("\"backlog\":true") }
        if case .unknown(let unknown) = response {
            fields.append("\"raw\":\(Self.json(JSONValue.object(unknown.json)))")
        } else {
            fields.append("\"message\":\(Self.json(response))")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// One line for a message that failed to decode; it keeps the raw text so nothing is lost. `location` says
    /// where it was read (`file:line`), when it was read from a file.
    public func line(for error: BCDecodingError, raw: String, key: String? = nil, location: String? = nil) -> String {
        switch format {
        case .text:
            let prefix = error.t.map { "t=\($0)" } ?? "t=?"
            let kind = error.kind ?? "?"
            let at = location.map { "\($0): " } ?? ""
            // The description quotes the raw message, and the location can be a file name read from a folder.
            return "\(Self.padded(prefix, 6)) \(Self.padded(kind, Self.kindWidth)) ✗ " + reportLine("\(at)\(error)")
        case .ndjson:
            var fields: [String] = []
            if let t = error.t { fields.append("\"t\":\(t)") }
            if let kind = error.kind { fields.append("\"kind\":\(Self.quoted(kind))") }
            if let key { fields.append("\"key\":\(Self.quoted(key))") }
            if let location { fields.append("\"source\":\(Self.quoted(location))") }
            fields.append("\"error\":\(Self.quoted(error.description))")
            fields.append("\"raw\":\(Self.quoted(raw))")
            return "{" + fields.joined(separator: ",") + "}"
        }
    }

    /// One line for input that was meant as a message but cannot be decoded at all (a line that is not UTF-8 or
    /// is too long, a recorded binary frame, a message the listener refused): why, where, and the raw text when
    /// it was kept, so that nothing is dropped without a word.
    public func line(forUndecodable reason: String, raw: String?, key: String? = nil, location: String) -> String {
        switch format {
        case .text:
            let quoted = raw.map { ": " + TerminalText.excerpt($0) } ?? ""
            return "\(Self.padded("t=?", 6)) \(Self.padded("?", Self.kindWidth)) ✗ "
                + reportLine("\(location): \(reason)\(quoted)")
        case .ndjson:
            var fields: [String] = []
            if let key { fields.append("\"key\":\(Self.quoted(key))") }
            fields.append("\"source\":\(Self.quoted(location))")
            fields.append("\"error\":\(Self.quoted(reason))")
            if let raw { fields.append("\"raw\":\(Self.quoted(raw))") }
            return "{" + fields.joined(separator: ",") + "}"
        }
    }

    /// The longest kind name, so that summaries line up.
    /// The kind's column: wide enough for every common kind (`viewerCountChanged`, `emomoRunStateChanged`), so
    /// that a message with its text fits a 100-column terminal. The few longer names (up to 30 characters, rare
    /// collab and game kinds) push their own line's text right rather than widen every line by ten columns.
    static let kindWidth = 20
    /// Where a text line's summary starts: after "t=NNN " (6 + 1) and the kind's column (+ 1).
    static let textColumn = 6 + 1 + kindWidth + 1

    /// `text` followed by spaces up to `width` characters; never cut.
    public static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// One NDJSON line for a frame that is not a message of the subscribed channel (an unknown command, a
    /// MSG for another key); text output reports those on stderr instead.
    public func line(forProblem reason: String, raw: String, key: String) -> String {
        "{\"key\":\(Self.quoted(key)),\"error\":\(Self.quoted(reason)),\"raw\":\(Self.quoted(raw))}"
    }

    /// `string` as a JSON string literal, quotes included.
    public static func quoted(_ string: String) -> String {
        json(string)
    }

    /// `value` as compact JSON with sorted keys, or `null` when it cannot be encoded.
    static func json(_ value: some Encodable) -> String {
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
