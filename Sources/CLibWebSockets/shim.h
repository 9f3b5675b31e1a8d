// What Swift cannot import from libwebsockets 4.1.6 directly: function-like macros (LWS_PRE),
// 64-bit option macros whose types the importer may guess wrong, and a timer struct that lets a
// C sul callback find its owner without a lookup table.
#ifndef BC_LWS_SHIM_H
#define BC_LWS_SHIM_H

#include <libwebsockets.h>
#include <ev.h>
#include <stdint.h>
#include <stddef.h>

/// Bytes lws needs in front of every buffer passed to lws_write (LWS_PRE is a computed macro).
static inline size_t bc_lws_pre(void) { return LWS_PRE; }

/// Context/vhost options used by the binding, as plain uint64_t.
static inline uint64_t bc_lws_option_ssl_global_init(void) { return LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT; }
static inline uint64_t bc_lws_option_disable_ipv6(void) { return LWS_SERVER_OPTION_DISABLE_IPV6; }
/// A listening vhost that binds every accepted socket to `listen_accept_role` / `listen_accept_protocol`: lws
/// accepts and moves bytes, and parses nothing (LWS_SERVER_OPTION_ONLY_RAW's current name).
static inline uint64_t bc_lws_option_adopt_listen_accept(void) { return LWS_SERVER_OPTION_ADOPT_APPLY_LISTEN_ACCEPT_CONFIG; }

/// lws on libev (its evlib_ev plugin, Debian's libwebsockets-evlib-ev) with a loop of ours (`foreign_loops`): epoll
/// on Linux, so a wake-up costs the sockets that are ready, not every socket (lws' own loop polls them all).
static inline uint64_t bc_lws_option_libev(void) { return LWS_SERVER_OPTION_LIBEV; }
/// An epoll loop (any backend libev has, where epoll is not); NULL if none can be made.
static inline struct ev_loop *bc_ev_loop_new(void) {
    struct ev_loop *loop = ev_loop_new(EVBACKEND_EPOLL);
    return loop ? loop : ev_loop_new(EVFLAG_AUTO);
}
/// One turn: waits for an event (lws' timers are watchers of this loop too), then runs every callback due.
static inline void bc_ev_run_once(struct ev_loop *loop) { ev_run(loop, EVRUN_ONCE); }
static inline void bc_ev_loop_destroy(struct ev_loop *loop) { ev_loop_destroy(loop); }
/// Whether the loop waits in epoll (else in another of libev's backends).
static inline int bc_ev_uses_epoll(struct ev_loop *loop) { return ev_backend(loop) == EVBACKEND_EPOLL; }

/// Listening ports that mean "do not listen".
static inline int bc_lws_port_no_listen(void) { return CONTEXT_PORT_NO_LISTEN; }

/// lws_write flags for one frame of a (possibly fragmented) message.
static inline int bc_lws_write_flags(int binary, int is_start, int is_end) {
    return lws_write_ws_flags(binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT, is_start, is_end);
}

/// Closes a wsi from outside its own callback: lws closes it on its next service pass.
static inline void bc_lws_kill_async(struct lws *wsi) {
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

/// SHA-1 of a buffer (lws_SHA1 is a macro for OpenSSL's SHA1): the client checks Sec-WebSocket-Accept itself.
static inline void bc_lws_sha1(const unsigned char *bytes, size_t count, unsigned char digest[20]) {
    lws_SHA1(bytes, count, digest);
}

/// What a raw client connection asks lws for: the socket, no HTTP or WebSocket role (LibWebSocketsAssumptions).
static inline const char *bc_lws_raw_method(void) { return "RAW"; }

/// A one-shot timer: the sul comes first so the callback's sul pointer is the timer's pointer.
typedef struct bc_lws_timer {
    lws_sorted_usec_list_t sul;
    uint64_t session_id;
    void *owner;
} bc_lws_timer_t;

static inline bc_lws_timer_t *bc_lws_timer_from_sul(lws_sorted_usec_list_t *sul) {
    return (bc_lws_timer_t *)(void *)sul;
}

#endif
