import CLibNATS
#if canImport(Glibc)
import Glibc
#endif

/// A JetStream stream as this project creates it: a name, the subjects it captures, what it keeps.
public struct JetStreamStream: Sendable, Hashable {
    /// When the stream lets go of a message.
    public enum Retention: Sendable, Hashable {
        /// Keeps messages within the stream's limits, for any number of consumers (BCSTREAM).
        case limits
        /// Each message is removed once one consumer acks it: a queue of work (BCSTREAM_FOLLOW).
        case workQueue
    }

    /// The stream's name (`BCSTREAM`).
    public var name: String
    /// The subjects whose messages it stores (NATS wildcards allowed).
    public var subjects: [String]
    /// When a stored message is removed.
    public var retention: Retention
    /// Copies kept by a cluster (1 on a single server; 3 on a three-node cluster survives a node).
    public var replicas = 1
    /// How long JetStream remembers a `Nats-Msg-Id` to drop a duplicate publish.
    public var duplicateWindow: Duration = .seconds(120)

    /// A stream of one replica that remembers message IDs for two minutes.
    public init(name: String, subjects: [String], retention: Retention) {
        self.name = name
        self.subjects = subjects
        self.retention = retention
    }
}

extension NATSConnection {
    /// Creates `stream` unless a stream of that name exists (whose configuration is then left as it is).
    /// Returns true if this call created it.
    @discardableResult
    public func ensureStream(_ stream: JetStreamStream) async throws(NATSError) -> Bool {
        let handles = handles
        return try await BlockingCall.run { () throws(NATSError) -> Bool in
            let jetStream = handles.jetStream
            var info: UnsafeMutablePointer<jsStreamInfo>?
            var code = jsErrCode(0)
            let found = js_GetStreamInfo(&info, jetStream, stream.name, nil, &code)
            if found == NATS_OK {
                jsStreamInfo_Destroy(info)
                return false
            }
            guard found == NATS_NOT_FOUND else {
                throw NATSError(found, jetStreamCode: code, doing: "looking up stream \(stream.name)")
            }
            var config = jsStreamConfig()
            jsStreamConfig_Init(&config)
            let name = strdup(stream.name)
            var subjects = stream.subjects.map { UnsafePointer(strdup($0)) }
            defer {
                free(name)
                for subject in subjects { free(UnsafeMutablePointer(mutating: subject)) }
            }
            config.Name = UnsafePointer(name)
            config.SubjectsLen = Int32(subjects.count)
            config.Retention = stream.retention == .workQueue ? js_WorkQueuePolicy : js_LimitsPolicy
            config.Storage = js_FileStorage
            config.Replicas = Int64(stream.replicas)
            config.Duplicates = stream.duplicateWindow.nanoseconds
            let added = subjects.withUnsafeMutableBufferPointer { buffer in
                config.Subjects = buffer.baseAddress
                return js_AddStream(nil, jetStream, &config, nil, &code)
            }
            // Another process created it between the two calls: it exists, which is what was asked.
            if added == NATS_OK || code.rawValue == 10058 { return added == NATS_OK }
            throw NATSError(added, jetStreamCode: code, doing: "creating stream \(stream.name)")
        }
    }
}

/// JetStream's answer to a publish: where the message is stored.
public struct JetStreamAck: Sendable, Hashable {
    /// The stream that stored the message.
    public let stream: String
    /// The message's sequence number in that stream.
    public let sequence: UInt64
    /// The stream already held a message with this `Nats-Msg-Id` (a retry of a publish that had been stored).
    public let duplicate: Bool
}

extension NATSConnection {
    /// Publishes `payload` on `subject` and waits for JetStream's ack (at most `timeout`). `messageID` goes out
    /// as `Nats-Msg-Id`: JetStream stores a message once per ID within the stream's duplicate window, so a retry
    /// of a publish whose ack was lost stores nothing twice.
    public func publish(_ payload: [UInt8], to subject: String, messageID: String? = nil,
                        timeout: Duration = .seconds(5)) async throws(NATSError) -> JetStreamAck {
        let handles = handles
        return try await BlockingCall.run { () throws(NATSError) -> JetStreamAck in
            try Self.publish(payload, to: subject, messageID: messageID, timeout: timeout, on: handles.jetStream)
        }
    }

    /// The blocking publish, for callers already on a thread of their own.
    static func publish(_ payload: [UInt8], to subject: String, messageID: String?, timeout: Duration,
                        on jetStream: OpaquePointer) throws(NATSError) -> JetStreamAck {
        var options = jsPubOptions()
        jsPubOptions_Init(&options)
        options.MaxWait = timeout.milliseconds
        var ack: UnsafeMutablePointer<jsPubAck>?
        var code = jsErrCode(0)
        let status = messageID.withOptionalCString { id in
            options.MsgId = id
            return payload.withUnsafeBytes { bytes in
                js_Publish(&ack, jetStream, subject, bytes.baseAddress, Int32(bytes.count), &options, &code)
            }
        }
        guard status == NATS_OK, let ack else {
            throw NATSError(status, jetStreamCode: code, doing: "publishing to \(subject)")
        }
        defer { jsPubAck_Destroy(ack) }
        return JetStreamAck(stream: ack.pointee.Stream.map { String(cString: $0) } ?? "",
                            sequence: ack.pointee.Sequence, duplicate: ack.pointee.Duplicate)
    }

    /// Publishes plain NATS (no JetStream ack): for status notes nobody has to store.
    public func publishCore(_ payload: [UInt8], to subject: String) throws(NATSError) {
        let status = payload.withUnsafeBytes { bytes in
            natsConnection_Publish(handles.connection, subject, bytes.baseAddress, Int32(bytes.count))
        }
        try check(status, "publishing to \(subject)")
    }
}

private extension Optional where Wrapped == String {
    func withOptionalCString<R>(_ body: (UnsafePointer<CChar>?) -> R) -> R {
        switch self {
        case .some(let string): string.withCString { body($0) }
        case .none: body(nil)
        }
    }
}
