import CLibNATS

/// A failure reported by nats.c: its status, JetStream's error code when the server gave one, and the text
/// nats.c kept for the failing call (`nats_GetLastError`, read on the thread that made the call).
public struct NATSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// nats.c's `natsStatus`, as its raw value.
    public let status: UInt32
    /// JetStream's error code (`jsErrCode`, like 10059 stream not found), 0 when there is none.
    public let jetStreamCode: Int
    /// What failed, in nats.c's words, with what the binding was doing.
    public let text: String

    /// An error of nats.c's `status`, JetStream's error code (0 for none) and the words to show.
    public init(status: UInt32, jetStreamCode: Int = 0, text: String) {
        self.status = status
        self.jetStreamCode = jetStreamCode
        self.text = text
    }

    /// Builds the error of a failed call made on this thread: `doing` says what the binding asked for.
    init(_ status: natsStatus, jetStreamCode: jsErrCode = jsErrCode(0), doing: String) {
        var lastStatus = NATS_OK
        let last = nats_GetLastError(&lastStatus).map { String(cString: $0) } ?? ""
        let named = String(cString: natsStatus_GetText(status))
        var text = "\(doing): \(named)"
        if !last.isEmpty, last != named { text += " (\(last))" }
        if jetStreamCode.rawValue != 0 { text += " [JetStream error \(jetStreamCode.rawValue)]" }
        self.init(status: status.rawValue, jetStreamCode: Int(jetStreamCode.rawValue), text: text)
    }

    public var description: String { text }

    /// The server could not be reached or did not answer in time: the same call may succeed later, once the
    /// connection is back (a timeout, no responders while JetStream restarts, a connection being re-established).
    public var isTransient: Bool {
        [NATS_TIMEOUT, NATS_NO_RESPONDERS, NATS_CONNECTION_DISCONNECTED, NATS_NOT_YET_CONNECTED, NATS_IO_ERROR,
         NATS_NO_SERVER, NATS_STALE_CONNECTION].map(\.rawValue).contains(status)
    }

    /// The raw `natsStatus` of a message over the server's max payload (it will never be accepted).
    public static let maxPayloadStatus = NATS_MAX_PAYLOAD.rawValue
    /// The raw `natsStatus` of a request nobody answered (JetStream has no stream for the subject, or is not up).
    public static let noRespondersStatus = NATS_NO_RESPONDERS.rawValue

    /// The call found nothing (`NATS_NOT_FOUND`), like a stream that does not exist.
    public var isNotFound: Bool { status == NATS_NOT_FOUND.rawValue }

    /// A fetch that waited its whole timeout without a message.
    public var isTimeout: Bool { status == NATS_TIMEOUT.rawValue }
}

/// Runs one nats.c call and throws its error unless it returned `NATS_OK`.
@inline(__always)
func check(_ status: natsStatus, _ doing: @autoclosure () -> String) throws(NATSError) {
    guard status == NATS_OK else { throw NATSError(status, doing: doing()) }
}
