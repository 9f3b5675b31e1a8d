/// One line a bcsvr server sends, split on TAB into at most three fields (protocol.md). Field 0 is the command.
///
/// ```
/// MSG\t118f91f:UdoBre1M\t{"t":8}   → .message(key: "118f91f:UdoBre1M", json: "{\"t\":8}")
/// ACK                              → .ack(nil)
/// ACK\tword                        → .ack("word")
/// ERR\tbad key                     → .error("bad key")
/// HELLO\tthere                     → .unknown("HELLO\tthere")
/// ```
///
/// Parsing only reads the syntax; whether the official app would accept a `MSG` (its key, its JSON) is
/// `rejection(subscribedKey:)`, so that a refused line can be reported instead of silently dropped.
public enum BCSVRLine: Hashable, Sendable {
    /// `MSG\t<key>\t<json>`: a message on channel `key`. The JSON keeps any TAB it contains.
    case message(key: String, json: String)
    /// `ACK…`: the answer to `PING` (and maybe to `SUB`), with the word after the TAB when there is one.
    case ack(String?)
    /// `ERR…`: an error, with whatever follows the first TAB (empty when nothing does).
    case error(String)
    /// Any other line, whole: an unknown command, or a `MSG` without its key and JSON fields.
    case unknown(String)

    /// Reads one line, without its `\n`. A trailing `\r` is dropped.
    public init(_ line: some StringProtocol) {
        var line = Substring(line)
        if line.last == "\r" { line = line.dropLast() }
        let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
        let rest = fields.count > 1 ? String(line[fields[1].startIndex...]) : nil
        switch fields[0] {
        case "MSG" where fields.count == 3:
            self = .message(key: String(fields[1]), json: String(fields[2]))
        case "ACK":
            self = .ack(rest)
        case "ERR":
            self = .error(rest ?? "")
        default:
            self = .unknown(String(line))
        }
    }

    /// The lines of one server frame: split on `\n`, a trailing `\r` dropped from each, lines that hold only
    /// whitespace skipped (a trailing newline gives none). Each line is exactly as received otherwise.
    public static func lines(in frame: String) -> [Substring] {
        // On UTF-8 bytes: `\r\n` is a single Character, which a split on "\n" would not cut; and the bytes are
        // what the listener reads for every frame, without decoding scalars. `\n` and `\r` are ASCII, so every
        // cut falls on a character boundary of `frame`.
        frame.utf8.split(separator: UInt8(ascii: "\n")).compactMap { bytes in
            let line = bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes
            let blank = line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
            return blank ? nil : Substring(line)
        }
    }

    /// Every line of one server frame, parsed (see `lines(in:)`).
    public static func parse(frame: String) -> [BCSVRLine] {
        lines(in: frame).map { BCSVRLine($0) }
    }

    /// Why the official app would refuse this line as a message of channel `subscribedKey`: another channel's
    /// key, or a body that does not start with `{`. Nil when it would accept it, and for lines that are not
    /// `MSG`.
    public func rejection(subscribedKey: String) -> Rejection? {
        guard case .message(let key, let json) = self else { return nil }
        if key != subscribedKey { return .otherChannel(received: key, subscribed: subscribedKey) }
        if json.first != "{" { return .notAJSONObject(json) }
        return nil
    }

    /// Why a `MSG` line is not a message of the subscribed channel.
    public enum Rejection: Hashable, Sendable, CustomStringConvertible {
        /// The line names another channel than the one subscribed.
        case otherChannel(received: String, subscribed: String)
        /// The body does not start with `{`, so it cannot be a message object.
        case notAJSONObject(String)

        public var description: String {
            switch self {
            case .otherChannel(let received, let subscribed):
                "MSG for channel \"\(received)\", not the subscribed \"\(subscribed)\""
            case .notAJSONObject(let body):
                "MSG body is not a JSON object (it does not start with \"{\"): \(body.excerpt)"
            }
        }
    }

    /// What is wrong with a line of an unknown command, in words; nil for the lines the listener knows.
    public var problem: String? {
        guard case .unknown(let line) = self else { return nil }
        let command = line.prefix { $0 != "\t" }
        if command == "MSG" { return "MSG line without both a key and a JSON field: \(line.excerpt)" }
        return "unknown command \"\(command.excerpt)\" in: \(line.excerpt)"
    }
}

extension StringProtocol {
    /// The start of a text for a message to a person: at most 120 characters, TABs shown as `\t`.
    var excerpt: String {
        let limit = 120
        let text = count <= limit ? String(self) : String(prefix(limit)) + "…"
        return text.replacing("\t", with: "\\t")
    }
}
