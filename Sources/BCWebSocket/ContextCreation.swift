import CLibWebSockets

/// Every libwebsockets context of the process is created here.
///
/// lws 4.1.6 allocates a new OpenSSL ex-data index each time it creates a context
/// (`lws_context_init_ssl_library`, lib/tls/openssl/openssl-tls.c) and keeps it in one process-wide global: an
/// lws TLS client handshake in flight across a creation lost its certificate verdict and failed with a bare
/// "SSL err 1". No client TLS goes through lws any more (`wss://` and HTTPS fetches use `ClientTLS`), so
/// nothing needs to watch creations now; they stay in one place should an lws TLS client come back
/// (docs/DESIGN.md, "The HTTP client").
enum ContextCreation {
    /// `lws_create_context`.
    static func create(_ info: inout lws_context_creation_info) -> OpaquePointer? {
        lws_create_context(&info)
    }
}
