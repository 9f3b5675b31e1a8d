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

    /// This process's run: a new UUID per start, so IDs never collide with an earlier run's.
    public let run: String
    private let line: Line
    private static let time = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// A maker whose lines come from `line` (the command line's NDJSON formatter, so that the fleet publishes
    /// what `--format ndjson` prints).
    public init(run: String = UUID().uuidString.lowercased(), line: @escaping Line) {
        self.run = run
        self.line = line
    }

    /// The message for `event` of channel `key`, or nil for an event that is not a frame (connected, ended…).
    /// `follow` numbers the live within this run, `frame` the frame within the live.
    public func message(for event: BCListenerEvent, key: String, follow: Int, frame: Int) -> FleetMessage? {
        guard let (line, kind, receivedAt) = line(event, key) else { return nil }
        var payload = Array(line.utf8.dropLast())  // the closing brace
        payload += Array(",\"receivedAt\":\"\(Self.time.format(receivedAt))\"}".utf8)
        return FleetMessage(subject: FleetSubjects.message(key: key, kind: kind), payload: payload,
                            id: "\(run)-\(follow)-\(frame)", kind: kind)
    }
}
