import Foundation

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
    ///
    /// Works on the UTF-8 bytes: TAB and CR are control characters, which always stand alone as Characters, so
    /// cutting at their bytes cuts where a split on Characters would, without breaking the text into graphemes
    /// (which cost more than decoding the message).
    public init(_ line: some StringProtocol) {
        var line = Substring(line)
        if line.utf8.last == UInt8(ascii: "\r") { line = Substring(line.utf8.dropLast()) }
        let tab = UInt8(ascii: "\t")
        let utf8 = line.utf8
        guard let firstTab = utf8.firstIndex(ofByte: tab) else {
            self = line == "ACK" ? .ack(nil) : line == "ERR" ? .error("") : .unknown(String(line))
            return
        }
        let command = line[..<firstTab]
        let restStart = utf8.index(after: firstTab)
        switch command {
        case "MSG":
            guard let secondTab = utf8[restStart...].firstIndex(ofByte: tab) else {
                self = .unknown(String(line))
                return
            }
            self = .message(key: String(line[restStart..<secondTab]), json: String(line[utf8.index(after: secondTab)...]))
        case "ACK":
            self = .ack(String(line[restStart...]))
        case "ERR":
            self = .error(String(line[restStart...]))
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
        let utf8 = frame.utf8
        // Nearly every frame is one line: no split, one element.
        if utf8.firstIndex(ofByte: UInt8(ascii: "\n")) == nil {
            return line(utf8[...]).map { [$0] } ?? []
        }
        return utf8.split(separator: UInt8(ascii: "\n")).compactMap(line)
    }

    /// Calls `body` with each line of `frame`, as `lines(in:)` gives them, until it returns false; without an
    /// array for the usual frame of one line.
    static func forEachLine(in frame: String, _ body: (Substring) -> Bool) {
        let utf8 = frame.utf8
        if utf8.firstIndex(ofByte: UInt8(ascii: "\n")) == nil {
            if let line = line(utf8[...]) { _ = body(line) }
            return
        }
        for piece in utf8.split(separator: UInt8(ascii: "\n")) {
            if let line = line(piece), !body(line) { return }
        }
    }

    /// The JSON of `line` when it is `MSG\t<key>\t{…` for exactly `key` (a message the app accepts), else nil:
    /// what `BCSVRLine(line)` and `rejection(subscribedKey:)` would find, without making the key a String.
    static func message(in line: Substring, ofKey key: String) -> String? {
        var key = key
        return key.withUTF8 { key -> String? in
            let utf8 = line.utf8
            let prefix = 4 + key.count + 1
            guard utf8.count > prefix else { return nil }
            // Anything unusual goes the long way, which says what is wrong: a key holding a TAB (the parser would
            // cut it there), a `{` that a combining mark after it makes another character (the parser compares
            // characters), a second `\r` at the end (the parser drops one more).
            let found = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
                bytes[0] == UInt8(ascii: "M") && bytes[1] == UInt8(ascii: "S") && bytes[2] == UInt8(ascii: "G")
                    && bytes[3] == UInt8(ascii: "\t") && bytes[prefix - 1] == UInt8(ascii: "\t")
                    && bytes[prefix] == UInt8(ascii: "{")
                    && (bytes.count == prefix + 1 || bytes[prefix + 1] < 0x80)
                    && bytes[bytes.count - 1] != UInt8(ascii: "\r")
                    && (key.isEmpty || (memcmp(bytes.baseAddress! + 4, key.baseAddress!, key.count) == 0
                        && memchr(key.baseAddress!, Int32(UInt8(ascii: "\t")), key.count) == nil))
            }
            guard found == true else { return nil }
            return String(line[utf8.index(utf8.startIndex, offsetBy: prefix)...])
        }
    }

    /// One line's bytes without a trailing `\r`, or nil for a line of only spaces, TABs and CRs.
    private static func line(_ bytes: Substring.UTF8View) -> Substring? {
        let line = bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes
        for byte in line where byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\r") {
            return Substring(line)
        }
        return nil
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

extension Collection where Element == UInt8 {
    /// The first position of `byte`, found with `memchr` over contiguous storage (a native string's UTF-8 is),
    /// else byte by byte: a frame is searched for its line breaks and TABs, and a generic search costs a step per
    /// byte.
    func firstIndex(ofByte byte: UInt8) -> Index? {
        let offset = withContiguousStorageIfAvailable { buffer -> Int? in
            guard let base = buffer.baseAddress, !buffer.isEmpty,
                  let found = memchr(base, Int32(byte), buffer.count)
            else { return nil }
            return UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
        guard let offset else { return firstIndex(of: byte) }
        return offset.map { index(startIndex, offsetBy: $0) }
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
