#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BCListener
import BCMessages

/// One thing a replay sends: a fixture's message, or a frame of a recording, with where it came from.
///
/// The stored text is kept exactly, byte for byte; `frame(for:)` says what a subscriber receives.
///
/// ## A recorded frame sent to a subscriber of another key
/// A recording holds whole frames as the recorder's session received them, on the key it subscribed to:
/// `MSG\t<recorded key>\t{…}`, `ACK`, `ERR…`, and whatever else came. A replay subscriber usually subscribes
/// with a key of its own, so each line of a recorded frame is sent as follows:
/// - `MSG\t<recorded key>\t<json>`: re-keyed to the subscriber's key; the JSON bytes are untouched (an
///   undecodable or non-object body included: it is what the server sent, and testing a client against it
///   is the point of a recording). The official app drops a MSG whose key is not the subscribed one, so
///   without re-keying a recording would show nothing.
/// - `MSG` for another key than the recorded one (a server that mixed channels): sent unchanged, so the
///   subscriber sees the same stray line the recorder saw.
/// - `ACK…` and `ERR…`: skipped. They were the server's answers to the recorder's own commands (its `PING`s,
///   its `SUB`), not channel traffic; the replay server answers the subscriber's `PING` and `SUB` itself, so
///   replaying them would answer commands the subscriber never sent.
/// - Anything else (an unknown command, a `MSG` without its fields, a blank line): sent unchanged.
///
/// Line breaks between the lines that are kept stay exactly as recorded. A frame left with nothing to send
/// (a lone `ACK`) gives nil; it still takes its place in the schedule, so the pace of what follows is kept.
public struct ReplayItem: Hashable, Sendable, Codable {
    /// What was stored.
    public enum Content: Hashable, Sendable, Codable {
        /// A fixture: the name of its file without `.json`, and the message's JSON exactly as stored.
        case fixture(name: String, json: String)
        /// A frame of a recording: its exact text, the key the recorder was subscribed to, and how long after
        /// the recording's first frame it was received.
        case recordedFrame(text: String, recordedKey: String, offset: Duration)
        /// A binary frame of a recording: its exact bytes (sent as they are, not re-keyed), and its offset.
        case recordedBinary(bytes: [UInt8], offset: Duration)
    }

    /// What was stored.
    public var content: Content
    /// The file and line it was read from.
    public var location: ReplaySourceLocation

    /// The item `content`, read at `location`.
    public init(content: Content, location: ReplaySourceLocation) {
        self.content = content
        self.location = location
    }

    /// A fixture's JSON, read from line 1 of `file`.
    public static func fixture(name: String, json: String, file: String) -> ReplayItem {
        ReplayItem(content: .fixture(name: name, json: json), location: ReplaySourceLocation(file: file, line: 1))
    }

    /// The stored text exactly: a fixture's JSON, or a recorded frame's text (a binary frame's bytes as UTF-8,
    /// with replacement characters where they are not).
    public var text: String {
        switch content {
        case .fixture(_, let json): json
        case .recordedFrame(let text, _, _): text
        case .recordedBinary(let bytes, _): String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The fixture's name (`35-gift-small-heart-captured-shape`), nil for a recorded frame.
    public var fixtureName: String? {
        if case .fixture(let name, _) = content { name } else { nil }
    }

    /// True for a fixture whose message ends the live (`BCType.endsLive`: t=8, t=123), by the `t` its JSON holds,
    /// as the listener reads it (a malformed t=8 ends the live too); false for a recorded frame, which keeps its
    /// place in its recording.
    public var endsLive: Bool {
        guard case .fixture(_, let json) = content else { return false }
        let t: Int?
        do {
            t = try BCMessageDecoder().decode(json).t
        } catch {
            t = error.t
        }
        return t.flatMap(BCType.init(rawValue:))?.endsLive == true
    }

    /// For a recorded frame, how long after the recording's first frame it was received; nil for a fixture.
    public var offset: Duration? {
        switch content {
        case .fixture: nil
        case .recordedFrame(_, _, let offset), .recordedBinary(_, let offset): offset
        }
    }

    /// The frame a subscriber of `subscriberKey` receives: `MSG\t<key>\t<json>` for a fixture; for a recorded
    /// frame, the frame re-keyed and without the recorder's `ACK`/`ERR` lines (see the type's documentation),
    /// or nil when nothing of it is left to send, or when it is a binary frame (`binaryFrame`).
    public func frame(for subscriberKey: String) -> String? {
        frameUTF8(for: subscriberKey).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `frame(for:)` as UTF-8 bytes, what the server sends, written straight into one array.
    public func frameUTF8(for subscriberKey: String) -> [UInt8]? {
        switch content {
        case .fixture(_, let json):
            return Self.message(key: subscriberKey, body: json.utf8)
        case .recordedFrame(let text, let recordedKey, _):
            // The usual recorded frame, one `MSG` line of the recorded key, is re-keyed without cutting it into
            // lines: at `--speed max` that cut was a sixth of the sender's time. Anything else goes line by line.
            if let body = Self.singleMessageBody(text, ofKey: recordedKey) {
                return Self.message(key: subscriberKey, body: body)
            }
            return Self.rekeyed(text, from: recordedKey, to: subscriberKey)
        case .recordedBinary:
            return nil
        }
    }

    /// `MSG\t<key>\t<body>` as bytes, written straight into one array.
    @inline(__always)
    private static func message(key: String, body: some Collection<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(5 + key.utf8.count + body.count)
        bytes.append(contentsOf: "MSG\t".utf8)
        bytes.append(contentsOf: key.utf8)
        bytes.append(UInt8(ascii: "\t"))
        bytes.append(contentsOf: body)
        return bytes
    }

    /// The bytes after `MSG\t<key>\t` when `frame` is that one line and nothing else (no `\n` anywhere): what
    /// `rekeyed` would re-key as a whole. Nil for any other frame.
    static func singleMessageBody(_ frame: String, ofKey key: String) -> Substring.UTF8View? {
        let utf8 = Substring(frame).utf8
        let prefixLength = 5 + key.utf8.count
        guard utf8.count >= prefixLength, utf8.starts(with: "MSG\t".utf8) else { return nil }
        let keyStart = utf8.index(utf8.startIndex, offsetBy: 4)
        let keyEnd = utf8.index(keyStart, offsetBy: key.utf8.count)
        guard utf8[keyStart..<keyEnd].elementsEqual(key.utf8), utf8[keyEnd] == UInt8(ascii: "\t") else { return nil }
        let hasLineBreak = utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, Int32(UInt8(ascii: "\n")), bytes.count) != nil
        } ?? utf8.contains(UInt8(ascii: "\n"))
        return hasLineBreak ? nil : utf8[utf8.index(after: keyEnd)...]
    }

    /// The stored bytes' count: about what sending it costs.
    var approximateSize: Int {
        switch content {
        case .fixture(_, let json): json.utf8.count
        case .recordedFrame(let text, _, _): text.utf8.count
        case .recordedBinary(let bytes, _): bytes.count
        }
    }

    /// A recorded binary frame's bytes, sent as a binary frame exactly as received; nil for anything else.
    public var binaryFrame: [UInt8]? {
        if case .recordedBinary(let bytes, _) = content { bytes } else { nil }
    }

    /// A recorded frame as a subscriber of `subscriberKey` receives it, line by line: its bytes, nil when only
    /// whitespace is left.
    static func rekeyed(_ frame: String, from recordedKey: String, to subscriberKey: String) -> [UInt8]? {
        let recordedPrefix = Array("MSG\t\(recordedKey)\t".utf8)
        let subscriberPrefix = Array("MSG\t\(subscriberKey)\t".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(frame.utf8.count)
        // Lines cut at each \n byte, the \n kept with its line: joining the kept lines gives the frame back
        // exactly, \r\n and all. A \n byte never sits inside a multi-byte UTF-8 sequence, so each piece is
        // valid UTF-8 on its own.
        var lineStart = frame.utf8.startIndex
        while lineStart < frame.utf8.endIndex {
            let newline = frame.utf8[lineStart...].firstIndex(of: UInt8(ascii: "\n"))
            let lineEnd = newline.map { frame.utf8.index(after: $0) } ?? frame.utf8.endIndex
            let line = frame.utf8[lineStart..<lineEnd]
            switch BCSVRLine(Self.withoutLineBreak(line)) {
            case .ack, .error:
                break
            case .message where line.starts(with: recordedPrefix):
                output += subscriberPrefix
                output += line.dropFirst(recordedPrefix.count)
            case .message, .unknown:
                output += line
            }
            lineStart = lineEnd
        }
        let blank = output.allSatisfy {
            $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n")
        }
        return blank ? nil : output
    }

    /// A line's text without its `\n` (`BCSVRLine` drops a `\r` itself).
    private static func withoutLineBreak(_ line: Substring.UTF8View) -> String {
        String(decoding: line.last == UInt8(ascii: "\n") ? line.dropLast() : line, as: UTF8.self)
    }
}
