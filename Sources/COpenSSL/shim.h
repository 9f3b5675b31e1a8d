// Debian's libssl-dev (OpenSSL 3; a dependency of libwebsockets-dev): TLS for a wss:// client that reads its own
// frames over an lws raw socket (ClientTLS.swift). The function-like macros it needs, as functions.
#ifndef BC_OPENSSL_SHIM_H
#define BC_OPENSSL_SHIM_H

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>

/// SNI: the host name the client asks for (SSL_set_tlsext_host_name is a macro).
static inline int bc_ssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/// Lets OpenSSL free a connection's read and write buffers while it is idle (SSL_CTX_set_mode is a macro): some
/// 34 KiB a connection, for a process that follows thousands of mostly quiet lives.
static inline void bc_ssl_ctx_release_buffers(SSL_CTX *context) {
    SSL_CTX_set_mode(context, SSL_MODE_RELEASE_BUFFERS);
}

/// Refuses TLS older than 1.2 (SSL_CTX_set_min_proto_version is a macro): a server that offers only TLS 1.0
/// or 1.1 then fails with a protocol-version error instead of one about its legacy signatures.
static inline int bc_ssl_ctx_require_tls12(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

/// Bytes waiting in a memory BIO (BIO_pending is a macro).
static inline int bc_bio_pending(BIO *bio) { return (int)BIO_pending(bio); }

#endif
