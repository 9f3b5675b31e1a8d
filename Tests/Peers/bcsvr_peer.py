#!/usr/bin/env python3
"""A scripted bcsvr server for BCListener's integration tests, on the `websockets` package (15.0.1,
asyncio API). It is not this project's code: it speaks bcsvr the way protocol.md describes the service.

Usage: bcsvr_peer.py SCENARIO [ARGS...]

It listens on 127.0.0.1, on a free port, and prints that port alone on the first line of stdout.
Every later stdout line is a report the test may wait for, "word n=N key=value ...", where n counts
the HTTP requests (upgrade attempts) from 1:

  request n=N path=P            an upgrade request arrived
  rejected n=N status=S         ... and was answered with HTTP S instead of 101
  open n=N extensions=E         the WebSocket opened; E is the negotiated extension or "none"
  sub n=N key=K                 the client subscribed
  ping n=N text=T               the client sent PING (T is the JSON-quoted frame)
  sent n=N fragments=F text=T   one message sent, printed just before it is sent; T is the JSON-quoted
                                text (ACK, ERR and garbage included), F the frames it was split into
  dropped n=N                   the server cut the TCP connection without a close frame
  silent n=N                    the server stopped reading (no ACK, no pong from now on)
  closed n=N code=C reason=R    the connection ended (C is 1006 when no close frame came)

A channel's session is a script of MSG lines (a viewer count, a comment, a gift, a join, t=8, from
Tests/Payloads). Every SUB continues the channel's script where the previous connection left it, as
a live goes on while a client reconnects. PING is answered with ACK (PING\\tword with ACK\\tword)
unless the scenario is silent.

When stdin is a pipe (as the tests give it), the peer exits as soon as that pipe closes: a test run
that dies without stopping it leaves nothing behind.

Scenarios:
  normal                every SUB gets the whole session (each channel its own, numbered by its first n)
  idle                  every SUB gets the session's first message, then nothing: the live goes on
  drop                  connection 1: two messages, then the TCP connection is cut; then the rest
  silent                connection 1: after SUB, no ACK and no reading at all; then normal
  status-then-ok CODE   request 1 is answered with HTTP CODE; then normal
  status CODE           every request is answered with HTTP CODE
  oversized BYTES       connection 1: one MSG line of BYTES bytes; then normal
  fragmented            every message in 3 frames, and two lines (CRLF-ended) in one message
  compressed            normal plus a 40 KB comment; permessage-deflate when the client offers it
  garbage               ACK, invalid JSON, t=999, ERR, an unknown command, another channel's MSG,
                        a viewer count, t=8
  tls CERT KEY          normal, over TLS with this certificate chain and key
"""

import asyncio
import itertools
import json
import os
import ssl
import stat
import sys
import threading

from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Response

PAYLOADS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Payloads")
SESSION_FIXTURES = ["1-comment-emoji-surrogates", "35-gift-count-8-coins-300", "3-join-wire-shape",
                    "8-live-ended-bare"]


def report(line):
    print(line, flush=True)


def quoted(text):
    return json.dumps(text)


def fixture(name):
    with open(os.path.join(PAYLOADS, name + ".json"), encoding="utf-8") as file:
        return file.read().strip()


def viewer_count(number):
    return json.dumps({"t": 23, "online_viewer_num": number, "total_viewer_num": 120}, separators=(",", ":"))


def long_comment(size):
    text = ("compressible bcsvr text " * (size // 24 + 1))[:size]
    return json.dumps({"t": 1, "u": "100000009", "ac": "peer", "iurl": "", "burl": "", "cm": text, "lci": "77"},
                      separators=(",", ":"))


class Peer:
    def __init__(self, scenario, args):
        self.scenario = scenario
        self.args = args
        self.requests = itertools.count(1)
        self.numbers = {}     # connection -> n
        self.scripts = {}     # key -> the channel's MSG bodies
        self.cursors = {}     # key -> how many of them were sent

    # HTTP

    def process_request(self, connection, request):
        n = next(self.requests)
        self.numbers[connection] = n
        report(f"request n={n} path={request.path}")
        status = None
        if self.scenario == "status" or (self.scenario == "status-then-ok" and n == 1):
            status = int(self.args[0])
        if status is None:
            return None
        report(f"rejected n={n} status={status}")
        return Response(status, "Refused by bcsvr_peer", Headers([("Content-Length", "0")]), b"")

    # WebSocket

    async def handler(self, ws):
        n = self.numbers.pop(ws, 0)
        names = [extension.name for extension in ws.protocol.extensions]
        report(f"open n={n} extensions={','.join(names) or 'none'}")
        try:
            async for frame in ws:
                if not isinstance(frame, str):
                    continue
                if frame.startswith("SUB\t"):
                    key = frame[4:]
                    report(f"sub n={n} key={key}")
                    if not await self.subscribed(ws, n, key):
                        return
                elif frame == "PING" or frame.startswith("PING\t"):
                    report(f"ping n={n} text={quoted(frame)}")
                    await self.send(ws, n, "ACK" + frame[4:])
        except ConnectionClosed:
            pass
        report(f"closed n={n} code={ws.close_code} reason={ws.close_reason}")

    async def send(self, ws, n, text, fragments=1):
        report(f"sent n={n} fragments={fragments} text={quoted(text)}")
        if fragments == 1:
            await ws.send(text)
        else:
            size = -(-len(text) // fragments)
            await ws.send([text[i:i + size] for i in range(0, len(text), size)])

    def script(self, key, n):
        if key not in self.scripts:
            bodies = [viewer_count(n)] + [fixture(name) for name in SESSION_FIXTURES]
            if self.scenario == "compressed":
                bodies.insert(1, long_comment(40_000))
            self.scripts[key] = bodies
            self.cursors[key] = 0
        return self.scripts[key]

    async def play(self, ws, n, key, count=None, fragments=1):
        """Sends the channel's next `count` messages (all that are left when None)."""
        bodies = self.script(key, n)
        end = len(bodies) if count is None else min(len(bodies), self.cursors[key] + count)
        while self.cursors[key] < end:
            body = bodies[self.cursors[key]]
            self.cursors[key] += 1
            await self.send(ws, n, f"MSG\t{key}\t{body}", fragments)

    async def subscribed(self, ws, n, key):
        """Runs the scenario after SUB; False when the connection is gone and the handler must stop."""
        scenario, first = self.scenario, n == 1
        if scenario == "idle":
            await self.play(ws, n, key, count=1)
        elif scenario == "drop" and first:
            await self.play(ws, n, key, count=2)
            # No close frame, no FIN handshake of the WebSocket: the socket just goes away, as when a
            # server process dies. What was sent is in the kernel already and still arrives.
            ws.transport.abort()
            report(f"dropped n={n}")
            return False
        elif scenario == "silent" and first:
            ws.transport.pause_reading()
            report(f"silent n={n}")
            await asyncio.Future()
        elif scenario == "oversized" and first:
            size = int(self.args[0])
            prefix = f'MSG\t{key}\t{{"t":1,"u":"1","ac":"big","iurl":"","burl":"","lci":"1","cm":"'
            await self.send(ws, n, prefix + "x" * (size - len(prefix) - 2) + '"}')
        elif scenario == "fragmented":
            bodies = self.script(key, n)
            await self.play(ws, n, key, count=len(bodies) - 3, fragments=3)
            pair = [f"MSG\t{key}\t{body}\r\n" for body in bodies[self.cursors[key]:self.cursors[key] + 2]]
            self.cursors[key] += 2
            await self.send(ws, n, "".join(pair))
            await self.play(ws, n, key, fragments=3)
        elif scenario == "garbage":
            for text in ["ACK", f"MSG\t{key}\t{{not json", f'MSG\t{key}\t{{"t":999,"new_key":12345678901234567890}}',
                         "ERR\tbad key", "HELLO\tthere", f'MSG\tother:channel\t{{"t":1}}',
                         f"MSG\t{key}\t{viewer_count(7)}", f"MSG\t{key}\t{fixture('8-live-ended-bare')}"]:
                await self.send(ws, n, text)
        else:
            await self.play(ws, n, key)
        return True


async def run(peer, ssl_context=None):
    async with serve(peer.handler, "127.0.0.1", 0, process_request=peer.process_request, ssl=ssl_context,
                     ping_interval=None, max_size=1 << 20) as server:
        report(str(server.sockets[0].getsockname()[1]))
        await asyncio.Future()


SCENARIOS = {"normal": 0, "idle": 0, "drop": 0, "silent": 0, "status-then-ok": 1, "status": 1, "oversized": 1,
             "fragmented": 0, "compressed": 0, "garbage": 0, "tls": 2}


def exit_with_parent():
    """When stdin is a pipe (as the tests give it), exits once it reaches end of file: the test stopped the peer,
    or the test process died without doing so. Run by hand, stdin is a terminal and nothing is watched."""
    if not stat.S_ISFIFO(os.fstat(0).st_mode):
        return

    def watch():
        while os.read(0, 4096):
            pass
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def main(argv):
    if len(argv) < 2 or argv[1] not in SCENARIOS or len(argv) - 2 != SCENARIOS[argv[1]]:
        print(__doc__, file=sys.stderr)
        return 2
    scenario, args = argv[1], argv[2:]
    exit_with_parent()
    context = None
    if scenario == "tls":
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args[0], args[1])
    try:
        asyncio.run(run(Peer(scenario, args), context))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
