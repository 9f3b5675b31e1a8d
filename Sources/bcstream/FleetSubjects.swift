import BCNATS

/// The names the fleet shares on NATS (README, "A fleet on NATS JetStream"): streams, subjects, the consumer.
enum FleetSubjects {
    /// Every decoded message and decode error, by channel and kind: `bcstream.msg.<channel>.<kind>`.
    static let messages = JetStreamStream(name: "BCSTREAM", subjects: ["bcstream.msg.>"], retention: .limits)
    /// Lives waiting for a worker: `{"url":"ws(s)://…","key":"…"}` on `bcstream.follow`, removed once acked.
    static let follow = JetStreamStream(name: "BCSTREAM_FOLLOW", subjects: ["bcstream.follow"], retention: .workQueue)
    /// Why a live stopped for good, by channel: `bcstream.status.<channel>`.
    static let status = JetStreamStream(name: "BCSTREAM_STATUS", subjects: ["bcstream.status.>"], retention: .limits)
    static let followSubject = "bcstream.follow"
    /// The durable pull consumer every worker shares.
    static let workers = "bcstream-workers"

    /// The subject token of a key: every character outside `[A-Za-z0-9_-]` becomes `_` (`118f91f:UdoBre1M` is
    /// `118f91f_UdoBre1M`), so a key can never add a token, a wildcard or a space to a subject.
    /// `stream` with `replicas` copies (a cluster's redundancy).
    static func replicated(_ stream: JetStreamStream, _ replicas: Int) -> JetStreamStream {
        var stream = stream
        stream.replicas = replicas
        return stream
    }

    static func channel(_ key: String) -> String {
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

    static func message(key: String, kind: String) -> String {
        "bcstream.msg.\(channel(key)).\(channel(kind))"
    }

    static func status(key: String) -> String {
        "bcstream.status.\(channel(key))"
    }
}
