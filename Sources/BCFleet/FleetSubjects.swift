import BCNATS

/// The names the fleet shares on NATS (README, "A fleet on NATS JetStream"): streams, subjects, the consumer.
public enum FleetSubjects {
    /// Every decoded message and decode error, by channel and kind: `bcstream.msg.<channel>.<kind>`.
    public static let messages = JetStreamStream(name: "BCSTREAM", subjects: ["bcstream.msg.>"], retention: .limits)
    /// Lives waiting for a worker: `{"url":"ws(s)://…","key":"…"}` on `bcstream.follow`, removed once acked.
    public static let follow = JetStreamStream(name: "BCSTREAM_FOLLOW", subjects: ["bcstream.follow"], retention: .workQueue)
    /// Why a live stopped for good, by channel: `bcstream.status.<channel>`.
    public static let status = JetStreamStream(name: "BCSTREAM_STATUS", subjects: ["bcstream.status.>"], retention: .limits)
    /// The subject follow requests are queued on.
    public static let followSubject = "bcstream.follow"
    /// The durable pull consumer every worker shares.
    public static let workers = "bcstream-workers"

    /// `stream` with `replicas` copies (a cluster's redundancy).
    public static func replicated(_ stream: JetStreamStream, _ replicas: Int) -> JetStreamStream {
        var stream = stream
        stream.replicas = replicas
        return stream
    }

    /// The subject token of a key: every character outside `[A-Za-z0-9_-]` becomes `_` (`118f91f:UdoBre1M` is
    /// `118f91f_UdoBre1M`), so a key can never add a token, a wildcard or a space to a subject.
    public static func channel(_ key: String) -> String {
        let token = String(key.map { character -> Character in
            guard character.isASCII, let ascii = character.asciiValue else { return "_" }
            switch ascii {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                return character
            default:
                return "_"
            }
        })
        return token.isEmpty ? "_" : token
    }

    /// The subject of a message of `kind` on channel `key`.
    public static func message(key: String, kind: String) -> String {
        "bcstream.msg.\(channel(key)).\(channel(kind))"
    }

    /// The subject of the status of the live of channel `key`.
    public static func status(key: String) -> String {
        "bcstream.status.\(channel(key))"
    }
}
