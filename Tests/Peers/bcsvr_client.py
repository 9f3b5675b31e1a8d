#!/usr/bin/env python3
"""An independent bcsvr client for the replay tests, built on `websockets` (Tests/Peers/requirements.txt).

Usage: bcsvr_client.py URL KEY [--on-go]

Connects to URL, sends SUB<TAB>KEY, and prints every message it receives as one JSON string per line
(json.dumps of the exact text), until the server closes the connection. Sends PING once and checks
that an ACK comes back (printed like any other frame). Exits 0 when the server closed the connection.

With --on-go it starts, prints "ready", and connects only once a line "go" arrives on stdin: a test that needs a
subscription at a given moment starts the interpreter early (seconds on a loaded machine) and subscribes at once.
"""

import asyncio
import json
import sys

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


async def main(url, key):
    async with connect(url, max_size=None) as ws:
        await ws.send(f"SUB\t{key}")
        await ws.send("PING")
        try:
            async for message in ws:
                print(json.dumps(message, ensure_ascii=False), flush=True)
        except ConnectionClosed:
            pass


if __name__ == "__main__":
    if "--on-go" in sys.argv[3:]:
        print("ready", flush=True)
        if sys.stdin.readline().strip() != "go":
            sys.exit("bcsvr_client: stdin closed before go")
    asyncio.run(asyncio.wait_for(main(sys.argv[1], sys.argv[2]), timeout=60))
