import BCListener
import BCMessages
import Foundation

/// One message for JetStream: where it goes, what it says, and the `Nats-Msg-Id` that makes its retries harmless.
struct FleetMessage: Sendable {
    var subject: String
    var payload: [UInt8]
    /// Unique per received frame (`<run>-<follow>-<frame>`), fixed before the first attempt, so every retry of
    /// one frame carries the same ID and JetStream stores it once.
    var id: String
    /// The message's kind, or `error` for a frame that did not decode.
    var kind: String

    /// The kind token of frames that did not decode: `bcstream.msg.<channel>.error`.
    static let errorKind = "error"
}

/// Builds the published form of a listener's events: exactly the `--format ndjson` line, with `receivedAt` (ISO
/// 8601, UTC, milliseconds) added as its last field.
struct FleetMessageMaker: Sendable {
    /// This process's run: a new UUID per start, so IDs never collide with an earlier run's.
    let run: String
    private let formatter = MessageFormatter(format: .ndjson)
    private static let time = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    init(run: String = UUID().uuidString.lowercased()) {
        self.run = run
    }

    /// The message for `event` of channel `key`, or nil for an event that is not a frame (connected, ended…).
    /// `follow` numbers the live within this run, `frame` the frame within the live.
    func message(for event: BCListenerEvent, key: String, follow: Int, frame: Int) -> FleetMessage? {
        let line: String
        let kind: String
        let receivedAt: Date
        switch event {
        case .message(let response, let raw, _, let at):
            line = formatter.line(for: response, raw: raw, key: key)
            kind = response.kind
            receivedAt = at
        case .undecodable(let error?, let raw, _):
            line = formatter.line(for: error, raw: raw, key: key)
            kind = FleetMessage.errorKind
            receivedAt = Date()
        case .undecodable(nil, let raw, let reason):
            line = formatter.line(forProblem: reason, raw: raw, key: key)
            kind = FleetMessage.errorKind
            receivedAt = Date()
        default:
            return nil
        }
        var payload = Array(line.utf8.dropLast())  // the closing brace
        payload += Array(",\"receivedAt\":\"\(Self.time.format(receivedAt))\"}".utf8)
        return FleetMessage(subject: FleetSubjects.message(key: key, kind: kind), payload: payload,
                            id: "\(run)-\(follow)-\(frame)", kind: kind)
    }
}
