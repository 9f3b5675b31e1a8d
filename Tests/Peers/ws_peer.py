#!/usr/bin/env python3
"""An independent WebSocket peer for BCWebSocketTests, built on the `websockets` package (15.0.1).

Usage: ws_peer.py SCENARIO [ARGS...]

Server scenarios listen on 127.0.0.1, on a free port, and print that port alone on the first line
of stdout. Every later stdout line is a report the test may wait for ("key=value ..."). The script
runs until the test kills it (or, for the client scenario, until it is done).

When stdin is a pipe (as the tests give it), the peer exits as soon as that pipe closes: a test run
that dies without stopping it leaves nothing behind. Lines on it are commands ("release").

  echo                  on open: report the request path and Origin, and the negotiated extensions,
                        send "hello"; answer every message with "echo:" + it (text or bytes).
                        Reports "closed code=N reason=..." when the connection ends.
  fragmented N          on open: send "part-1|part-2|...|part-N" as one message in N frames.
  big BYTES             on open: send one text message of BYTES "x" characters.
  status CODE           answer the upgrade with HTTP CODE (e.g. 503, 403) instead of 101.
  silent                accept TCP connections and never answer (raw socket, no WebSocket).
  ping                  send "hello", then a ping; report "pong=matched" when the pong with its payload
                        comes back within 5 s, else "pong=missing ...".
  mute                  complete the upgrade, send "hello", then stop reading the socket, so pings
                        are never answered.
  tls CERT KEY          like echo, over TLS with this certificate chain and key.
  held-relay PORT       accept TCP connections and relay each to 127.0.0.1:PORT both ways, but hold the
                        first bytes of each ("held bytes=N") until a line "release" arrives on stdin;
                        from then on nothing is held. (A TLS client's handshake waits there, between
                        its ClientHello and the server's certificate, as long as the test wants.)
  client URL [plain]    connect to URL as a client (offering permessage-deflate unless "plain"),
                        send "hello from python", report every message received as
                        "received fragments=N text=..." and close after the second one.
"""

import asyncio
import os
import ssl
import stat
import sys
import threading

from websockets.asyncio.client import connect
from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Response
from websockets.datastructures import Headers


def report(line):
    print(line, flush=True)


def extensions_of(ws):
    names = [e.name for e in ws.protocol.extensions]
    return ",".join(n for n in names) or "none"


async def echo_handler(ws):
    report(f"request path={ws.request.path} origin={ws.request.headers.get('Origin')}")
    report(f"extensions={extensions_of(ws)}")
    await ws.send("hello")
    try:
        async for message in ws:
            if isinstance(message, str):
                await ws.send("echo:" + message)
            else:
                await ws.send(b"echo:" + message)
    except ConnectionClosed:
        pass
    code = ws.close_code
    report(f"closed code={code} reason={ws.close_reason}")


def fragmented_handler(count):
    async def handler(ws):
        parts = [f"part-{i}" + ("|" if i < count else "") for i in range(1, count + 1)]
        await ws.send(parts)  # an iterable of str is sent as one fragmented message
        await ws.wait_closed()
    return handler


def big_handler(size):
    async def handler(ws):
        await ws.send("x" * size)
        await ws.wait_closed()
        report(f"closed code={ws.close_code} reason={ws.close_reason}")
    return handler


def status_process_request(code):
    def process_request(connection, request):
        return Response(code, "Refused by test", Headers([("Content-Length", "0")]), b"")
    return process_request


async def ping_handler(ws):
    await ws.send("hello")
    try:
        # websockets resolves the waiter only for a pong that carries this ping's payload.
        waiter = await ws.ping(b"are you there?")
        await asyncio.wait_for(waiter, timeout=5)
        report("pong=matched")
    except (asyncio.TimeoutError, ConnectionClosed) as error:
        report(f"pong=missing {type(error).__name__}")
    await ws.wait_closed()


async def mute_handler(ws):
    await ws.send("hello")
    # Stop reading: pings from the client stay in the socket buffer and get no pong.
    ws.transport.pause_reading()
    report("muted")
    await asyncio.Future()


async def run_server(handler, process_request=None, ssl_context=None, max_size=16 * 1024 * 1024):
    async with serve(handler, "127.0.0.1", 0, process_request=process_request, ssl=ssl_context,
                     ping_interval=None, max_size=max_size) as server:
        port = server.sockets[0].getsockname()[1]
        report(str(port))
        await asyncio.Future()


async def run_silent():
    held = []

    async def accept(reader, writer):
        held.append(writer)  # keep the connection open, say nothing
        await asyncio.Future()

    server = await asyncio.start_server(accept, "127.0.0.1", 0)
    report(str(server.sockets[0].getsockname()[1]))
    await asyncio.Future()


released = threading.Event()


async def run_held_relay(target_port):
    async def pipe(reader, writer):
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def accept(reader, writer):
        first = await reader.read(65536)
        report(f"held bytes={len(first)}")
        await asyncio.to_thread(released.wait)
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", target_port)
        up_writer.write(first)
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    server = await asyncio.start_server(accept, "127.0.0.1", 0)
    report(str(server.sockets[0].getsockname()[1]))
    await asyncio.Future()


async def run_client(url, compression):
    async with connect(url, ping_interval=None, open_timeout=5, compression=compression) as ws:
        report(f"extensions={extensions_of(ws)}")
        await ws.send("hello from python")
        for _ in range(2):
            fragments = []
            async for fragment in ws.recv_streaming():
                fragments.append(fragment)
            report(f"received fragments={len(fragments)} text={''.join(fragments)}")
        await ws.close(code=1000, reason="client done")
    report("done")


def exit_with_parent():
    """When stdin is a pipe (as the tests give it), exits once it reaches end of file: the test stopped the peer,
    or the test process died without doing so. Run by hand, stdin is a terminal and nothing is watched."""
    if not stat.S_ISFIFO(os.fstat(0).st_mode):
        return

    def watch():
        pending = b""
        while data := os.read(0, 4096):
            pending += data
            *lines, pending = pending.split(b"\n")
            if b"release" in lines:
                released.set()
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    scenario, args = argv[1], argv[2:]
    exit_with_parent()
    if scenario == "echo":
        coroutine = run_server(echo_handler)
    elif scenario == "fragmented":
        coroutine = run_server(fragmented_handler(int(args[0])))
    elif scenario == "big":
        coroutine = run_server(big_handler(int(args[0])))
    elif scenario == "status":
        coroutine = run_server(echo_handler, process_request=status_process_request(int(args[0])))
    elif scenario == "silent":
        coroutine = run_silent()
    elif scenario == "ping":
        coroutine = run_server(ping_handler)
    elif scenario == "mute":
        coroutine = run_server(mute_handler)
    elif scenario == "tls":
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args[0], args[1])
        coroutine = run_server(echo_handler, ssl_context=context)
    elif scenario == "held-relay":
        coroutine = run_held_relay(int(args[0]))
    elif scenario == "client":
        coroutine = run_client(args[0], None if args[1:] == ["plain"] else "deflate")
    else:
        print(f"unknown scenario {scenario}", file=sys.stderr)
        return 2
    try:
        asyncio.run(coroutine)
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
