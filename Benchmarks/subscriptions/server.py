#!/usr/bin/env python3
"""The subscriptions benchmark's server: a bcsvr server on the `websockets` package (asyncio, epoll).

Usage: server.py --message FILE

It listens on 127.0.0.1 on a free port and prints "port=PORT" as its first stdout line. To every `SUB<TAB>key`
it answers with one `MSG<TAB>key<TAB><the JSON of FILE>`, then nothing more; `PING` gets `ACK`. It holds any
number of idle connections at a cost per event that does not grow with their number (asyncio's epoll), so
what the benchmark measures is the listener, not the server. No compression unless the client offers it. It
runs until killed, or until its stdin closes when stdin is a pipe.
"""
import argparse
import asyncio
import os
import stat
import sys

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--message", required=True)
    arguments = parser.parse_args()
    with open(arguments.message, encoding="utf-8") as file:
        message = file.read().strip()

    async def serve_client(connection):
        try:
            async for frame in connection:
                if not isinstance(frame, str):
                    continue
                if frame.startswith("SUB\t"):
                    await connection.send(f"MSG\t{frame[4:]}\t{message}")
                elif frame.startswith("PING"):
                    await connection.send("ACK")
        except ConnectionClosed:
            pass

    async with serve(serve_client, "127.0.0.1", 0, backlog=4096, max_size=2**20, ping_interval=None) as server:
        port = server.sockets[0].getsockname()[1]
        print(f"port={port}", flush=True)
        if stat.S_ISFIFO(os.fstat(sys.stdin.fileno()).st_mode):
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        else:
            await asyncio.Future()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
