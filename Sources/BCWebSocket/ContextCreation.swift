import CLibWebSockets
import Synchronization

/// Every libwebsockets context of the process is created here, one at a time, and counted.
///
/// lws 4.1.6 allocates a new OpenSSL ex-data index each time it creates a context
/// (`lws_context_init_ssl_library`, lib/tls/openssl/openssl-tls.c) and keeps it in one process-wide global.
/// A TLS connection stores its wsi under the index current when it connects; the certificate verify callback
/// looks it up under the index current when the server's certificate arrives. A context created in between
/// makes that lookup fail: lws logs "can't get wsi from ssl privdata" and fails the handshake with a bare
/// "SSL err 1", whatever the certificate, and without calling our verify callback. So a process that creates
/// a context (an HTTP fetcher, a server, a pool's next loop) while another loop is in a TLS handshake loses
/// that handshake. lws offers no way to keep the index, so the binding counts creations: a TLS attempt that
/// failed without a certificate verdict while the count moved is tried again (`retriesAfterCreation`).
/// Creation is also serialised, since lws' OpenSSL global init is not safe from two threads at once.
enum ContextCreation {
    /// How many times one connection is tried again because a context was created during its handshake.
    static let retriesAfterCreation = 3

    private static let lock = Mutex(())
    private static let created = Atomic<UInt64>(0)

    /// Creations started so far; compare a value read before a connect with one read after its failure.
    static var generation: UInt64 { created.load(ordering: .acquiring) }

    /// `lws_create_context`, serialised with every other creation in the process. The count moves before lws
    /// touches the index, so a handshake failing because of this creation always sees it moved.
    static func create(_ info: inout lws_context_creation_info) -> OpaquePointer? {
        lock.withLock { _ in
            created.add(1, ordering: .releasing)
            return lws_create_context(&info).map { UInt(bitPattern: $0) }
        }.flatMap { OpaquePointer(bitPattern: $0) }
    }

    /// A TLS attempt that failed before any certificate verdict, begun at `generation`, may have lost its
    /// handshake to a context created meanwhile.
    static func mayHaveLostHandshake(startedAt generation: UInt64) -> Bool {
        self.generation != generation
    }
}
