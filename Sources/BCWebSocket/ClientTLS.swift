import COpenSSL

/// TLS for a `wss://` client over an lws raw socket, and for a `WebSocketServer` serving `wss://` over its raw
/// sockets (`init(serverContext:)`): OpenSSL with two memory BIOs, so that lws moves the bytes
/// (poll, read, write) and the TLS records are ours to feed and take. lws 4.1.6 cannot put its own TLS on a raw
/// client socket (`lws_client_connect_via_info` starts TLS for a RAW method before the socket exists), and a
/// `wss://` link that lws framed paid its per-byte parser; this way both schemes read their own frames.
///
/// The certificate is checked by OpenSSL against the trust of `ClientTLSContext` and, unless that trust is
/// `insecure`, against the URL's host: its DNS name (`SSL_set1_host`) or its IP address. Service thread only.
package final class ClientTLS {
    private let ssl: OpaquePointer
    /// Ciphertext from the socket, read by OpenSSL.
    private let fromSocket: OpaquePointer
    /// Ciphertext OpenSSL wrote, for the socket.
    private let toSocket: OpaquePointer
    /// The URL's host, for the words of a host name mismatch.
    private let host: String
    private(set) var isEstablished = false
    /// Why the handshake failed, once it has (`Step.failed` holds its words).
    package private(set) var failure: TLSFailure?

    package enum Step: Equatable {
        /// More bytes from the server are needed.
        case waiting
        /// The handshake is done and the certificate was accepted.
        case established
        /// Why the handshake failed, in words for `WebSocketConnectFailure.tls`.
        case failed(String)
    }

    package enum Read: Equatable {
        /// `count` bytes of plaintext were read.
        case bytes(Int)
        /// Nothing to read until more ciphertext arrives.
        case waiting
        /// The server closed TLS (close_notify) or broke it.
        case ended(String)
    }

    package init?(context: ClientTLSContext, host: String) {
        guard let (ssl, fromSocket, toSocket) = Self.connection(of: context.context) else { return nil }
        self.ssl = ssl
        self.fromSocket = fromSocket
        self.toSocket = toSocket
        self.host = host
        SSL_set_connect_state(ssl)
        let isAddress = AddressResolver.isIPv4(host) || host.contains(":")
        if !isAddress { _ = bc_ssl_set_server_name(ssl, host) }
        if !context.insecure {
            if isAddress {
                _ = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host)
            } else {
                _ = SSL_set1_host(ssl, host)
            }
        }
    }

    /// The server's side of an accepted connection (`WebSocketServer` with `tls`), with the certificate and key of
    /// `context`. Everything else works as for a client; no certificate is asked of the client.
    init?(serverContext context: ServerTLSContext) {
        guard let (ssl, fromSocket, toSocket) = Self.connection(of: context.context) else { return nil }
        self.ssl = ssl
        self.fromSocket = fromSocket
        self.toSocket = toSocket
        self.host = ""
        SSL_set_accept_state(ssl)
    }

    /// A connection of `context` over two memory BIOs, which it owns.
    private static func connection(of context: OpaquePointer) -> (OpaquePointer, OpaquePointer, OpaquePointer)? {
        guard let ssl = SSL_new(context) else { return nil }
        guard let fromSocket = BIO_new(BIO_s_mem()), let toSocket = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            return nil
        }
        SSL_set_bio(ssl, fromSocket, toSocket)  // the SSL owns both from here
        return (ssl, fromSocket, toSocket)
    }

    deinit {
        SSL_free(ssl)
    }

    /// Hands OpenSSL the ciphertext that arrived.
    package func receive(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        _ = BIO_write(fromSocket, base, Int32(clamping: bytes.count))
    }

    /// Goes on with the handshake as far as the bytes received allow.
    package func handshake() -> Step {
        guard !isEstablished else { return .established }
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            isEstablished = true
            return .established
        }
        let error = SSL_get_error(ssl, result)
        if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return .waiting }
        let verdict = SSL_get_verify_result(ssl)
        let failure = verdict != X509_V_OK
            ? TLSFailure.certificate(verdict: verdict, host: host)
            : TLSFailure.handshake(reason: ERR_GET_REASON(ERR_peek_error()), connectionEnded: error == SSL_ERROR_SYSCALL)
        self.failure = failure
        return .failed(failure.description)
    }

    /// Reads plaintext into `buffer`.
    package func read(into buffer: UnsafeMutableRawBufferPointer) -> Read {
        ERR_clear_error()
        let result = SSL_read(ssl, buffer.baseAddress, Int32(clamping: buffer.count))
        if result > 0 { return .bytes(Int(result)) }
        let error = SSL_get_error(ssl, result)
        if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return .waiting }
        if error == SSL_ERROR_ZERO_RETURN { return .ended("the server closed TLS") }
        return .ended(Self.errorText(error, fallback: "TLS broke"))
    }

    /// Encrypts all of `plaintext` (memory BIOs take everything); false when OpenSSL refuses.
    package func write(_ plaintext: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < plaintext.count {
            ERR_clear_error()
            let written = SSL_write(ssl, plaintext.baseAddress! + offset, Int32(clamping: plaintext.count - offset))
            guard written > 0 else { return false }
            offset += Int(written)
        }
        return true
    }

    /// Ciphertext waiting to go out, if any.
    package var outputCount: Int { Int(bc_bio_pending(toSocket)) }

    /// Moves up to `buffer.count` bytes of ciphertext out; returns how many.
    package func takeOutput(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard !buffer.isEmpty else { return 0 }
        return max(0, Int(BIO_read(toSocket, buffer.baseAddress, Int32(clamping: buffer.count))))
    }

    private static func errorText(_ error: Int32, fallback: String) -> String {
        let code = ERR_get_error()
        guard code != 0 else { return error == SSL_ERROR_SYSCALL ? "\(fallback): the connection ended" : fallback }
        return "\(fallback) (TLS error \(ERR_GET_REASON(code)))"
    }

}

/// An OpenSSL client context: the trust `wss://` certificates are checked against, shared by every connection of a
/// loop with the same `WebSocketClientConfiguration.TLS`. Loading the system store costs some 50 ms of CPU, once.
///
/// `@unchecked Sendable`: nothing in it changes after `make` (the SSL_CTX is configured there, and both stored
/// properties are constants); OpenSSL allows `SSL_new` on one SSL_CTX from several threads (the HTTPS fetches).
package final class ClientTLSContext: @unchecked Sendable {
    let context: OpaquePointer
    let insecure: Bool

    /// Nil, with the reason, when the trust cannot be set up (a CA file that does not load).
    package static func make(_ tls: WebSocketClientConfiguration.TLS) -> Result<ClientTLSContext, WebSocketConnectFailure> {
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            return .failure(.tls("could not set up TLS (out of memory?)"))
        }
        if tls.insecure {
            SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        } else {
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
            let loaded = tls.caFile.map { SSL_CTX_load_verify_file(context, $0) } ?? SSL_CTX_set_default_verify_paths(context)
            guard loaded == 1 else {
                SSL_CTX_free(context)
                return .failure(.tls("could not load the CA file \(tls.caFile ?? "(system store)")"))
            }
        }
        bc_ssl_ctx_release_buffers(context)
        _ = bc_ssl_ctx_require_tls12(context)
        // No h2 in ALPN: a WebSocket upgrade is HTTP/1.1.
        let alpn: [UInt8] = [8] + Array("http/1.1".utf8)
        _ = alpn.withUnsafeBufferPointer { SSL_CTX_set_alpn_protos(context, $0.baseAddress, UInt32($0.count)) }
        return .success(ClientTLSContext(context: context, insecure: tls.insecure))
    }

    private init(context: OpaquePointer, insecure: Bool) {
        self.context = context
        self.insecure = insecure
    }

    deinit {
        SSL_CTX_free(context)
    }
}
