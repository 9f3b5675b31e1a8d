import CLibWebSockets
import Synchronization

/// Every libwebsockets context of the process is created here, and watched.
///
/// lws 4.1.6 allocates a new OpenSSL ex-data index each time it creates a context
/// (`lws_context_init_ssl_library`, lib/tls/openssl/openssl-tls.c) and keeps it in one process-wide global.
/// A TLS connection stores its wsi under the index current when it connects; the certificate verify callback
/// looks it up under the index current when the server's certificate arrives. A context created in between
/// makes that lookup fail: lws logs "can't get wsi from ssl privdata" and fails the handshake with a bare
/// "SSL err 1", whatever the certificate, and without calling our verify callback. So a process that creates
/// a context (an HTTP fetcher, a server, a pool's next loop) while another loop is in a TLS handshake loses
/// that handshake. lws offers no way to keep the index, so the binding watches creations: a TLS attempt that
/// failed without a certificate verdict while a creation began, ended or was under way is tried again
/// (`retriesAfterCreation`).
///
/// Creations are not serialised: one takes about 50 ms here (OpenSSL loads the system store), tests create
/// dozens at once, and a queue of them held every waiting loop past its clients' connect timeouts. OpenSSL's
/// own global init and index allocation are thread-safe (1.1 and later).
enum ContextCreation {
    /// How many times one connection is tried again because a context was created during its handshake.
    static let retriesAfterCreation = 3

    /// Moves twice per creation, once before lws is called and once after it returns.
    private static let moves = Atomic<UInt64>(0)
    /// Creations under way.
    private static let underWay = Atomic<Int>(0)

    /// Read before a TLS connect; `retries(…startedAt:)` compares it after a failure.
    static var generation: UInt64 { moves.load(ordering: .acquiring) }

    /// `lws_create_context`, watched.
    static func create(_ info: inout lws_context_creation_info) -> OpaquePointer? {
        underWay.add(1, ordering: .sequentiallyConsistent)
        moves.add(1, ordering: .sequentiallyConsistent)
        defer {
            moves.add(1, ordering: .sequentiallyConsistent)
            underWay.subtract(1, ordering: .sequentiallyConsistent)
        }
        return lws_create_context(&info)
    }

    /// Whether a failed connection attempt is made again, unseen by its caller: a TLS attempt with no certificate
    /// verdict, begun at `generation`, tried again fewer than `retriesAfterCreation` times, that may have lost its
    /// handshake: a creation began or ended since (the index changed after the connect) or is under way now (one
    /// that began just before the connect may change the index after it). The one rule for every client.
    static func retries(secure: Bool, certificateRejected: Bool, retriedSoFar: Int, startedAt generation: UInt64)
        -> Bool {
        guard secure, !certificateRejected, retriedSoFar < retriesAfterCreation else { return false }
        return underWay.load(ordering: .sequentiallyConsistent) > 0
            || moves.load(ordering: .sequentiallyConsistent) != generation
    }
}
