#!/usr/bin/env python3
"""The peer benchmark's one sender: a bcsvr server on the `websockets` package (15.x, asyncio API).

Usage: sender.py --payloads DIR --messages N

It listens on 127.0.0.1 only, on a free port, and prints "port=PORT" as its first stdout line. To every
client that sends `SUB<TAB>key` it sends N `MSG<TAB>key<TAB>json` text frames, cycling over the fixtures of
DIR (one message per `*.json` file; Invalid/ and the kinds that end a live, t=8 and t=123, are left out, or
a listener would stop early), awaiting each send so it goes exactly as fast as the client reads. Then it
sends `MSG<TAB>key<TAB>{"t":8}` (the live ended), so receivers stop. `PING` is answered with `ACK` all along.
No compression is negotiated. When the client is gone it prints one line,

  served client=C key=K sent=N cpu=SECONDS wall=SECONDS

(cpu: this process's user+sys CPU while serving that client), and serves the next client. It runs until
it is killed, or until its stdin closes when stdin is a pipe.
"""

import argparse
import asyncio
import json
import os
import stat
import sys
import time

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

# Benchmarks/common.py: the fixtures and the process helpers the benchmarks share (Benchmarks is no package).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import corpus_frames, fixture_frames  # noqa: E402


def report(line):
    print(line, flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--payloads", help="a fixtures folder: one message per *.json file")
    source.add_argument("--corpus", help="a file of one's own: one JSON message (or MSG line) a line")
    parser.add_argument("--messages", type=int, required=True)
    args = parser.parse_args()
    fixtures = fixture_frames(args.payloads, "sender") if args.payloads else corpus_frames(args.corpus, "sender")
    clients = 0

    async def handler(ws):
        nonlocal clients
        clients += 1
        client = clients
        subscribed = asyncio.get_running_loop().create_future()

        async def read():
            # SUB starts the corpus; PING is answered at any time, even mid-corpus.
            try:
                async for message in ws:
                    if not isinstance(message, str):
                        continue
                    for line in message.splitlines():
                        if line.startswith("SUB\t") and not subscribed.done():
                            subscribed.set_result(line.split("\t", 1)[1])
                        elif line == "PING" or line.startswith("PING\t"):
                            await ws.send("ACK" + line[4:])
            except ConnectionClosed:
                pass
            if not subscribed.done():
                subscribed.cancel()

        reader = asyncio.create_task(read())
        sent = 0
        try:
            key = await subscribed
            frames = [f"MSG\t{key}\t{json}".encode("utf-8") for json in fixtures]
            count = len(frames)
            cpu, wall = time.process_time(), time.monotonic()
            for i in range(args.messages):
                await ws.send(frames[i % count], text=True)
                sent += 1
            await ws.send(f'MSG\t{key}\t{{"t":8}}')
            # The receivers close once they have read the t=8; wait for that, not longer than a while.
            await asyncio.wait_for(reader, timeout=30)
            report(f"served client={client} key={key} sent={sent} "
                   f"cpu={time.process_time() - cpu:.3f} wall={time.monotonic() - wall:.3f}")
        except (ConnectionClosed, asyncio.CancelledError, asyncio.TimeoutError) as error:
            report(f"failed client={client} sent={sent} error={type(error).__name__}")
        finally:
            reader.cancel()

    async def run():
        async with serve(handler, "127.0.0.1", 0, compression=None, ping_interval=None,
                         max_size=1 << 20) as server:
            port = server.sockets[0].getsockname()[1]
            report(f"port={port} fixtures={len(fixtures)}")
            if stat.S_ISFIFO(os.fstat(0).st_mode):
                await asyncio.get_running_loop().run_in_executor(None, sys.stdin.buffer.read)
                return
            await asyncio.Future()

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
