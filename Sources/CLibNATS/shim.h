// nats.c 3.4 (Debian's libnats-dev), as Swift sees it. Everything imports directly; the header exists so the
// module map has one file to name, as for CLibWebSockets.
#ifndef BC_NATS_SHIM_H
#define BC_NATS_SHIM_H

#include <nats/nats.h>

#endif
