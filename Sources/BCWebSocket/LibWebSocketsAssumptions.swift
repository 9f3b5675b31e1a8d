import CLibWebSockets

/// What BCWebSocket relies on in libwebsockets beyond what its API promises, read from lws 4.1.6 (Debian bookworm's
/// libwebsockets-dev). Each fact names where in lws it comes from and what checks it against the installed library
/// (`LibWebSocketsAssumptionsTests` for the client's, the server suites for the listening role), failing when one
/// stops holding. Re-read them all when the version changes.
enum LibWebSocketsAssumptions {
    /// The version these facts were read from: `lws_get_library_version()` starts with it.
    static let version = "4.1.6"

    /// The installed library's version text, e.g. "4.1.6-unknown".
    static var installedVersion: String { String(cString: lws_get_library_version()) }

    // MARK: Why a raw client connect failed

    /// What `LWS_CALLBACK_CLIENT_CONNECTION_ERROR`'s text means: lws tells why a connect failed only in that text
    /// (no errno, no code), passed to `lws_inform_client_conn_fail` as a literal.
    enum ConnectError: Equatable {
        /// Nothing accepted the connection: another address of the host may.
        case refused
        /// lws' own connect timer fired before ours (`contextTimeoutSeconds`).
        case timedOut
        /// A text not read here (a new version's words, or a failure these facts do not cover).
        case unknown
    }

    /// Lower-case phrases of lws' text when connect(2) failed for every address: 4.1.6 says "Unable to connect"
    /// (lib/roles/http/client/client-handshake.c, `lws_client_connect_3_connect`, `try_next_result`). The others
    /// are later versions' words for a connect that fails ("conn fail: …", lib/core-net/client/connect3.c) and
    /// the wording this binding matched before these facts were checked.
    static let refusedPhrases = ["unable to connect", "conn fail", "connect failed", "refused", "unreachable",
                                 "hung up", "errno"]
    /// Lower-case phrases of lws' text when its own connect timer ends a connect. 4.1.6 says
    /// "closed before established": its timer (`PENDING_TIMEOUT_AWAITING_CONNECT_RESPONSE`) closes the socket, and
    /// `__lws_close_free_wsi` (lib/core-net/close.c) says so for any client closed while it waits to connect.
    /// In the binding nothing else closes one then: its own deadline and a stopping loop end the session first.
    /// "timeout" and "timed out" are other versions' words (and the TLS and server-reply timers',
    /// lib/core-net/wsi-timeout.c).
    static let timeoutPhrases = ["closed before established", "timeout", "timed out"]

    /// The meaning of `message`, lws' `CLIENT_CONNECTION_ERROR` text for a raw socket (TCP only: a client's TLS
    /// and upgrade are ours). A refusal is recognised before a timeout.
    static func connectError(_ message: String) -> ConnectError {
        let lower = message.lowercased()
        if refusedPhrases.contains(where: lower.contains) { return .refused }
        if timeoutPhrases.contains(where: lower.contains) { return .timedOut }
        return .unknown
    }

    // MARK: The raw client socket

    /// `lws_client_connect_info.method` "RAW" (`bc_lws_raw_method`, shim.h) makes the connection an lws raw
    /// socket: lws connects, polls and reads, and sends nothing of its own, no HTTP request, no framing
    /// (lib/core-net/connect.c, `lws_client_connect_via_info`: `!strcmp(i->method, "RAW")` binds the raw role;
    /// lib/roles/http/client/client-handshake.c: "for a method = "RAW" connection, this makes us established").
    static var rawMethod: String { String(cString: bc_lws_raw_method()) }

    /// The `lws_write` type a client writes with: `LWS_WRITE_RAW`, a macro for `LWS_WRITE_HTTP`
    /// (include/libwebsockets/lws-write.h) that Swift does not import. On a raw socket lws 4.1.6 sends the bytes
    /// as they are whatever the type (the raw role has no `write_role_protocol`, so `lws_write` goes straight to
    /// `lws_issue_raw`, lib/core-net/output.c), and keeps what the socket does not take at once for later, in
    /// order, before the next WRITEABLE.
    static let rawWrite = LWS_WRITE_HTTP

    // MARK: The raw listening socket

    /// A server's listening vhost binds every accepted socket to the role and protocol named in
    /// `listen_accept_role` / `listen_accept_protocol` with this option (`LWS_SERVER_OPTION_ADOPT_APPLY_LISTEN_ACCEPT_CONFIG`,
    /// formerly `LWS_SERVER_OPTION_ONLY_RAW`; lib/core-net/vhost.c and lib/roles/listen/ops-listen.c,
    /// `rops_handle_POLLIN_listen`): lws accepts, polls, reads and writes bytes (RAW_ADOPT, RAW_RX,
    /// RAW_WRITEABLE, RAW_CLOSE) and parses nothing, so the upgrade and every frame are ours
    /// (ServiceCore+ServerLink.swift). `RAW_ADOPT` comes once the socket is polled, and the adoption sets no
    /// timeout (the handshake timer is ours). Checked by the server suites: without it no request would reach
    /// `ServerHandshake` and every `ServerOwnFramesTests` case would fail to connect.
    static var adoptListenAcceptOption: UInt64 { bc_lws_option_adopt_listen_accept() }
    /// The role name lws 4.1.6 registers for raw sockets (lib/roles/raw-skt/ops-raw-skt.c, `role_ops_raw_skt.name`).
    static let listenAcceptRole = "raw-skt"

    // MARK: The event loop

    /// With `LWS_SERVER_OPTION_LIBEV` and a loop of ours in `foreign_loops`, lws 4.1.6 runs every socket of the
    /// context on that libev loop (lib/event-libs/libev/libev.c): `elops_init_pt_ev` adopts the loop, a ready
    /// socket's watcher services that one wsi (`lws_accept_cb` → `lws_service_fd_tsi`), lws' timers are an
    /// `ev_timer`, and `lws_cancel_service`'s pipe is a watcher like any socket. `lws_context_destroy` stops lws'
    /// watchers and leaves a foreign loop to its owner (`elops_destroy_context2_ev` skips it). The plugin is
    /// loaded at context creation from Debian's libwebsockets-evlib-ev (lws is built with
    /// `LWS_WITH_EVLIB_PLUGINS`); without it the creation fails. Checked by `LibWebSocketsAssumptionsTests`: a
    /// loop waits in epoll.
    static var eventLoopOption: UInt64 { bc_lws_option_libev() }

    // MARK: Timeouts

    /// lws' context-wide connect and handshake timeouts on a client loop (`connect_timeout_secs`,
    /// `timeout_secs`; lws' default is 20 s): raised so that a connection's own `connectTimeout` timer fires first.
    /// lws applies `connect_timeout_secs` to a raw socket's TCP connect (lib/roles/http/client/client-handshake.c,
    /// `lws_client_connect_3_connect`: `lws_set_timeout(wsi, PENDING_TIMEOUT_AWAITING_CONNECT_RESPONSE, …)`), and
    /// says so in words `timeoutPhrases` knows. It checks that timeout only when its loop wakes, which the
    /// binding's one-second sweep makes sure of.
    static let contextTimeoutSeconds: UInt32 = 120
}
