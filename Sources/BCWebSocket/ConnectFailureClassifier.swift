/// Maps what lws says in `LWS_CALLBACK_CLIENT_CONNECTION_ERROR` to a typed failure, in a person's words: lws'
/// own text is read, never passed on.
///
/// lws 4.1.6 reports connection errors only as text (the `in` argument) plus, for an upgrade
/// answered with something other than 101, the status kept in the header table
/// (`lws_http_client_http_response`). The timeout is not classified here: the binding runs its own
/// connect timer and knows when it fired.
enum ConnectFailureClassifier {
    /// - Parameters:
    ///   - message: lws' error text, e.g. "HS: ws upgrade response not 101".
    ///   - httpStatus: `lws_http_client_http_response`, 0 when no response was parsed.
    ///   - reachedUpgrade: the upgrade request was being written, so TCP (and TLS) had succeeded.
    ///   - secure: the URL was `wss`.
    ///   - certificateRejected: OpenSSL's verify callback saw a certificate fail (preverify_ok 0).
    static func classify(message: String, httpStatus: Int, reachedUpgrade: Bool, secure: Bool,
                         certificateRejected: Bool = false) -> WebSocketConnectFailure {
        if httpStatus > 0, httpStatus != 101 {
            return .httpStatus(httpStatus)
        }
        let lower = message.lowercased()
        if lower.contains("unauthorized") {
            // lws special-cases 401 with its own text, before it records the status.
            return .httpStatus(401)
        }
        if !reachedUpgrade {
            if secure, certificateRejected {
                return .tls("server certificate not trusted")
            }
            if secure, ["ssl", "tls", "certificate", "verify", "x509", "handshake"].contains(where: lower.contains) {
                return .tls("the TLS handshake failed")
            }
            if ["refused", "unable to connect", "connect failed", "unreachable", "conn fail", "hung up", "errno"].contains(where: lower.contains) {
                return .refused
            }
        }
        if lower.contains("read failed") {
            // lws' text when the socket reached EOF (or a reset) while it waited for the upgrade answer.
            return .other("the server closed the connection before answering the WebSocket upgrade")
        }
        return .other("the connection could not be made")
    }
}
