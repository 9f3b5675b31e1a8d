import CLibNATS
import Synchronization

/// A durable pull consumer of a stream: several processes that open the same durable share its messages, each
/// message going to one of them until it is acked, or handed out again after `ackWait` without news.
public struct PullConsumerConfiguration: Sendable, Hashable {
    /// The stream the consumer reads.
    public var stream: String
    /// The durable consumer's name, shared by every process that takes from it.
    public var durable: String
    /// The subject the consumer takes from the stream.
    public var subject: String
    /// How long a fetched message stays claimed without an ack or an in-progress; then it is redelivered.
    public var ackWait: Duration = .seconds(30)
    /// How many messages may be claimed and not acked at once, all holders together.
    public var maxAckPending = 100_000

    /// A configuration with the default ack wait (30 s) and pending limit.
    public init(stream: String, durable: String, subject: String) {
        self.stream = stream
        self.durable = durable
        self.subject = subject
    }
}

/// Fetches messages of a durable pull consumer. One fetch at a time (nats.c's rule for a pull subscription): a
/// second caller waits for the first.
public final class PullConsumer: Sendable {
    private let subscription: Subscription
    /// Held across a fetch: nats.c refuses two fetches at once on one subscription.
    private let fetching = Mutex(())
    /// Kept alive for the subscription's life.
    public let connection: NATSConnection

    /// `@unchecked Sendable`: the pointer is set once; nats.c's subscription is thread-safe, fetches are
    /// serialized by `fetching`, and it is destroyed in `deinit` only.
    struct Subscription: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private init(subscription: Subscription, connection: NATSConnection) {
        self.subscription = subscription
        self.connection = connection
    }

    /// Binds to (or creates) the durable consumer `configuration.durable` of `configuration.stream`.
    public static func open(_ configuration: PullConsumerConfiguration, on connection: NATSConnection)
        async throws(NATSError) -> PullConsumer {
        let handles = connection.handles
        let subscription = try await BlockingCall.run { () throws(NATSError) -> Subscription in
            var options = jsSubOptions()
            jsSubOptions_Init(&options)
            var code = jsErrCode(0)
            var subscription: OpaquePointer?
            let status = configuration.stream.withCString { stream in
                options.Stream = stream
                options.ManualAck = true
                options.Config.AckPolicy = js_AckExplicit
                options.Config.AckWait = configuration.ackWait.nanoseconds
                options.Config.MaxAckPending = Int64(configuration.maxAckPending)
                options.Config.MaxDeliver = -1
                return js_PullSubscribe(&subscription, handles.jetStream, configuration.subject, configuration.durable,
                                        nil, &options, &code)
            }
            guard status == NATS_OK, let subscription else {
                throw NATSError(status, jetStreamCode: code,
                                doing: "opening pull consumer \(configuration.durable) of \(configuration.stream)")
            }
            return Subscription(pointer: subscription)
        }
        return PullConsumer(subscription: subscription, connection: connection)
    }

    /// Up to `batch` messages, waiting at most `timeout` for the first; empty when none came in time.
    public func fetch(batch: Int, timeout: Duration) async throws(NATSError) -> [NATSMessage] {
        try await BlockingCall.run { () throws(NATSError) -> [NATSMessage] in
            try self.fetchNow(batch: batch, timeout: timeout)
        }
    }

    /// The blocking fetch.
    private func fetchNow(batch: Int, timeout: Duration) throws(NATSError) -> [NATSMessage] {
        try fetching.withLock { _ throws(NATSError) -> [NATSMessage] in
            var list = natsMsgList()
            var code = jsErrCode(0)
            // nats.c may end a fetch early with a timeout (a late 408 for an earlier request that expired is taken
            // as this one's answer): fetch again for the rest of the time, so `timeout` is what the caller gets.
            let deadline = ContinuousClock.now + timeout
            var status = NATS_TIMEOUT
            while status == NATS_TIMEOUT {
                let remaining = (deadline - ContinuousClock.now).milliseconds
                if remaining <= 0 { return [] }
                status = natsSubscription_Fetch(&list, subscription.pointer, Int32(batch), remaining, &code)
            }
            guard status == NATS_OK else { throw NATSError(status, jetStreamCode: code, doing: "fetching") }
            var messages: [NATSMessage] = []
            for index in 0..<Int(list.Count) {
                // Taken out of the list, which then frees only its array.
                guard let message = list.Msgs[index] else { continue }
                list.Msgs[index] = nil
                messages.append(NATSMessage(taking: message))
            }
            natsMsgList_Destroy(&list)
            return messages
        }
    }

    deinit {
        // Not natsSubscription_Unsubscribe: that would delete the durable, which the other workers share.
        natsSubscription_Destroy(subscription.pointer)
    }
}

/// A message fetched from a pull consumer, claimed until it is acked, naked or terminated.
///
/// `@unchecked Sendable`: `message` is owned by this object alone (taken out of the fetched list) and freed in
/// `deinit`; the acks, which nats.c does not guard per message, are serialized by `state`; the subject, data and
/// delivery count are copied out at init.
public final class NATSMessage: @unchecked Sendable {
    private let message: OpaquePointer
    private let state = Mutex(false)  // a final answer (ack, nak, term) was sent
    /// The subject it was published on.
    public let subject: String
    /// Its payload, copied out of nats.c's message.
    public let data: [UInt8]
    /// How many times JetStream delivered this message (1 the first time; more after a holder vanished).
    public let deliveries: UInt64

    init(taking message: OpaquePointer) {
        self.message = message
        subject = natsMsg_GetSubject(message).map { String(cString: $0) } ?? ""
        let length = Int(natsMsg_GetDataLength(message))
        if let bytes = natsMsg_GetData(message), length > 0 {
            data = bytes.withMemoryRebound(to: UInt8.self, capacity: length) {
                Array(UnsafeBufferPointer(start: $0, count: length))
            }
        } else {
            data = []
        }
        var metadata: UnsafeMutablePointer<jsMsgMetaData>?
        if natsMsg_GetMetaData(&metadata, message) == NATS_OK, let metadata {
            deliveries = metadata.pointee.NumDelivered
            jsMsgMetaData_Destroy(metadata)
        } else {
            deliveries = 1
        }
    }

    /// Done: JetStream removes it from a work queue.
    public func ack() throws(NATSError) { try answer("acking") { natsMsg_Ack($0, nil) } }

    /// Given back: JetStream delivers it again at once, maybe to another holder.
    public func nak() throws(NATSError) { try answer("naking") { natsMsg_Nak($0, nil) } }

    /// Never again: JetStream stops delivering it (a payload no worker can use).
    public func term() throws(NATSError) { try answer("terminating") { natsMsg_Term($0, nil) } }

    /// Still working on it: the claim's ack wait starts over.
    public func inProgress() throws(NATSError) {
        try state.withLock { answered throws(NATSError) in
            guard !answered else { return }
            try check(natsMsg_InProgress(message, nil), "marking \(subject) in progress")
        }
    }

    private func answer(_ doing: String, _ call: (OpaquePointer) -> natsStatus) throws(NATSError) {
        try state.withLock { answered throws(NATSError) in
            guard !answered else { return }
            try check(call(message), "\(doing) \(subject)")
            answered = true
        }
    }

    deinit { natsMsg_Destroy(message) }
}
