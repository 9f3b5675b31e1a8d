// Debian's zlib1g-dev (a dependency of libwebsockets-dev): the inflater of permessage-deflate messages the
// client reads itself (MessageInflater.swift). inflateInit2 is a macro; this shim makes it a function.
#ifndef BC_ZLIB_SHIM_H
#define BC_ZLIB_SHIM_H

#include <zlib.h>

/// A raw-deflate inflater (no zlib header, RFC 7692) with a window of 2^window_bits bytes.
static inline int bc_inflate_init_raw(z_stream *stream, int window_bits) {
    return inflateInit2(stream, -window_bits);
}

#endif
