import COpenSSL

/// The OpenSSL server context of a `WebSocketServer` that serves `wss://`: its certificate chain and key, loaded
/// once at start-up and shared by every accepted connection (`ClientTLS(serverContext:)`, which does the TLS over
/// the raw socket, as the client does). Made and used on the server's service thread only.
final class ServerTLSContext {
    let context: OpaquePointer

    /// The context, or what is wrong with the files, in words for `WebSocketServer.StartError`.
    static func make(_ tls: WebSocketServerConfiguration.TLS) -> Result<ServerTLSContext, StartFailure> {
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            return .failure(StartFailure(description: "could not set up TLS (out of memory?)"))
        }
        let made = ServerTLSContext(context: context)
        guard SSL_CTX_use_certificate_chain_file(context, tls.certificateFile) == 1 else {
            return .failure(StartFailure(description: "the TLS certificate \(tls.certificateFile) does not load: "
                + "it must be a PEM certificate chain, leaf first"))
        }
        guard SSL_CTX_use_PrivateKey_file(context, tls.privateKeyFile, SSL_FILETYPE_PEM) == 1 else {
            return .failure(StartFailure(description: "the TLS private key \(tls.privateKeyFile) does not load: "
                + "it must be an unencrypted PEM key"))
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            return .failure(StartFailure(description: "the TLS private key \(tls.privateKeyFile) does not match "
                + "the certificate \(tls.certificateFile)"))
        }
        bc_ssl_ctx_release_buffers(context)
        _ = bc_ssl_ctx_require_tls12(context)
        return .success(made)
    }

    /// Why the context could not be made.
    struct StartFailure: Error {
        let description: String
    }

    private init(context: OpaquePointer) {
        self.context = context
    }

    deinit {
        SSL_CTX_free(context)
    }
}
