/// What lws says in `LWS_CALLBACK_CLIENT_CONNECTION_ERROR` for a client's raw socket, as a typed failure in a
/// person's words: lws' text is read (`LibWebSocketsAssumptions.connectError`), never passed on. Only the TCP
/// connect reaches lws' error callback: a client's TLS and upgrade are ours (ServiceCore+ClientLink.swift), and
/// so is its connect deadline (`ServiceCore.connectDeadlinePassed`).
enum ConnectFailureClassifier {
    /// - Parameters:
    ///   - message: lws' error text, e.g. "Unable to connect".
    ///   - elapsed: how long the connection has been trying, the time a timed-out connect reports.
    static func classify(message: String, elapsed: Duration) -> WebSocketConnectFailure {
        switch LibWebSocketsAssumptions.connectError(message) {
        case .refused:
            return .refused
        case .timedOut:
            // lws' own timer fired before ours (a connectTimeout above LibWebSocketsAssumptions.contextTimeoutSeconds).
            return .timedOut(after: elapsed)
        case .unknown:
            return .other("the connection could not be made")
        }
    }
}
