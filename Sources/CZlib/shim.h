// Debian's zlib1g-dev (a dependency of libwebsockets-dev): the inflater of the permessage-deflate messages both roles
// read themselves (MessageInflater.swift) and the server's deflater (MessageDeflater.swift). inflateInit2 and
// deflateInit2 are macros; this shim makes them functions.
#ifndef BC_ZLIB_SHIM_H
#define BC_ZLIB_SHIM_H

#include <zlib.h>

/// A raw-deflate inflater (no zlib header, RFC 7692) with a window of 2^window_bits bytes.
static inline int bc_inflate_init_raw(z_stream *stream, int window_bits) {
    return inflateInit2(stream, -window_bits);
}

/// A raw-deflate compressor (no zlib header, RFC 7692) with a window of 2^window_bits bytes.
static inline int bc_deflate_init_raw(z_stream *stream, int level, int window_bits, int mem_level) {
    return deflateInit2(stream, level, Z_DEFLATED, -window_bits, mem_level, Z_DEFAULT_STRATEGY);
}

#endif
