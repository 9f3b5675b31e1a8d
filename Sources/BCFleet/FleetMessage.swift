import BCListener
import BCMessages
import Foundation

/// One message for JetStream: where it goes, what it says, and the `Nats-Msg-Id` that makes its retries harmless.
public struct FleetMessage: Sendable {
    /// `bcstream.msg.<channel>.<kind>`.
    public var subject: String
    /// The message's NDJSON line with `receivedAt`, as UTF-8.
    public var payload: [UInt8]
    /// Unique per received frame (`<run>-<follow>-<frame>`), fixed before the first attempt, so every retry of
    /// one frame carries the same ID and JetStream stores it once.
    public var id: String
    /// The message's kind, or `error` for a frame that did not decode.
    public var kind: String

    /// A message for `subject` with `payload`, published once under `id`.
    public init(subject: String, payload: [UInt8], id: String, kind: String) {
        self.subject = subject
        self.payload = payload
        self.id = id
        self.kind = kind
    }

    /// The kind token of frames that did not decode: `bcstream.msg.<channel>.error`.
    public static let errorKind = "error"
}

/// Builds the published form of a listener's events: exactly the `--format ndjson` line, with `receivedAt` (ISO
/// 8601, UTC, milliseconds) added as its last field.
public struct FleetMessageMaker: Sendable {
    /// The NDJSON line of `event` on channel `key` (one JSON object, no line break), its kind (`error` for a frame
    /// that did not decode) and when it was received; nil for an event that is not a frame.
    public typealias Line = @Sendable (_ event: BCListenerEvent, _ key: String)
        -> (line: String, kind: String, receivedAt: Date)?

    /// The NDJSON line of a recent comment fetched from the API, on channel `key` (one JSON object, no line
    /// break, marked `"backlog":true`) and its kind.
    public typealias BacklogLine = @Sendable (_ comment: BacklogComment, _ key: String) -> (line: String, kind: String)

    /// This process's run: a new UUID per start, so IDs never collide with an earlier run's.
    public let run: String
    private let line: Line
    private let backlogLine: BacklogLine?
    private static let time = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// A maker whose lines come from `line` and `backlogLine` (the command line's NDJSON formatter, so that the
    /// fleet publishes what `--format ndjson` prints).
    public init(run: String = UUID().uuidString.lowercased(), line: @escaping Line, backlogLine: BacklogLine? = nil) {
        self.run = run
        self.line = line
        self.backlogLine = backlogLine
    }

    /// The message for `event` of channel `key`, or nil for an event that is not a frame (connected, ended…).
    /// `follow` numbers the live within this run, `frame` the frame within the live. A comment's ID is its
    /// comment's (``commentID(key:comment:)``), so that the same comment, live or refilled, is stored once.
    public func message(for event: BCListenerEvent, key: String, follow: Int, frame: Int) -> FleetMessage? {
        guard let (line, kind, receivedAt) = line(event, key) else { return nil }
        var id = "\(run)-\(follow)-\(frame)"
        if case .message(.comment(let comment), _, _, _) = event, let commentID = Self.commentID(key: key, comment: comment.commentID) {
            id = commentID
        }
        return FleetMessage(subject: FleetSubjects.message(key: key, kind: kind), payload: Self.stamped(line, receivedAt),
                            id: id, kind: kind)
    }

    /// The message of a recent comment fetched from the API to fill a take-over's gap, received `at`; nil without
    /// a backlog line, or for a comment whose id cannot make a message ID.
    public func message(for comment: BacklogComment, key: String, at receivedAt: Date) -> FleetMessage? {
        guard let backlogLine, let id = Self.commentID(key: key, comment: comment.id) else { return nil }
        let (line, kind) = backlogLine(comment, key)
        return FleetMessage(subject: FleetSubjects.message(key: key, kind: kind), payload: Self.stamped(line, receivedAt),
                            id: id, kind: kind)
    }

    /// `comment-<key>-<comment id>`, the `Nats-Msg-Id` of a comment; nil for an id that is empty, longer than 64
    /// bytes or holds anything but `A-Z a-z 0-9 _ -` (it comes from the service and goes into a header).
    public static func commentID(key: String, comment: String) -> String? {
        FollowRequest.isPlainID(comment) ? "comment-\(key)-\(comment)" : nil
    }

    /// `line` with `"receivedAt"` added as its last field.
    private static func stamped(_ line: String, _ receivedAt: Date) -> [UInt8] {
        var payload = Array(line.utf8.dropLast())  // the closing brace
        payload += Array(",\"receivedAt\":\"\(time.format(receivedAt))\"}".utf8)
        return payload
    }
}
