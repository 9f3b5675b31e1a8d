#!/usr/bin/env python3
"""Opens many idle TCP connections to a loopback port and holds them, for the metrics port's flood tests
(stdlib only). Its own process holds the descriptors, so the test process (which spawns other children:
Foundation's Process reads /proc/self/fd to close them) stays small.

Usage: idle_peer.py connect PORT COUNT

Raises its soft limit on open files toward the hard one, starts COUNT non-blocking connects to
127.0.0.1:PORT, waits (at most 120 s) until every one is established, which paces it to the server when
the server's accept queue overflows and the kernel drops SYNs, prints "opened COUNT" (or "failed after N:
reason"), and keeps them open, sending nothing, until its stdin closes.
"""

import errno
import select
import resource
import socket
import sys
import time


def main():
    if len(sys.argv) != 4 or sys.argv[1] != "connect":
        sys.exit(__doc__)
    port, count = int(sys.argv[2]), int(sys.argv[3])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = count + 64 if hard == resource.RLIM_INFINITY else min(hard, count + 64)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    held = []
    for _ in range(count):
        try:
            client = socket.socket()
            client.setblocking(False)
            result = client.connect_ex(("127.0.0.1", port))
            if result not in (0, errno.EINPROGRESS):
                raise OSError(result, "connect")
        except OSError as error:
            print("failed after %d: %s" % (len(held), error), flush=True)
            break
        held.append(client)
    else:
        pending = select.poll()
        waiting = {}
        for client in held:
            pending.register(client, select.POLLOUT)
            waiting[client.fileno()] = client
        deadline = time.monotonic() + 120
        while waiting and time.monotonic() < deadline:
            for fd, _ in pending.poll(1000):
                pending.unregister(fd)
                del waiting[fd]
        if waiting:
            print("failed after %d: %d not established in 120 s" % (count - len(waiting), len(waiting)), flush=True)
        else:
            print("opened %d" % count, flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
