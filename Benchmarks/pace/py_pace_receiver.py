#!/usr/bin/env python3
"""The Python script a user would write to follow many lives at once: `websockets` + msgspec, one connection and
one asyncio task per channel, every message decoded into typed msgspec Structs and encoded back to JSON on stdout.

Usage: py_pace_receiver.py URL KEYS_FILE [--report SECONDS]

KEYS_FILE holds one channel key a line (blank lines and # comments skipped). Each key gets its own task, which
connects (at most 200 handshakes at a time, as a script that opens thousands must, or the server's listen backlog
and handshake timeouts turn them away; 30 s to open), sends `SUB<TAB>key`, prints "subscribed to channel KEY" on
stderr (the words `bcstream listen` uses, so the benchmark waits for both alike) and then, for every `MSG` line,
decodes and encodes exactly as Benchmarks/peers/py_receiver.py does (the model is Benchmarks/peers/bcsvr_structs.py,
shared). A channel whose live ends (t=8) stops. A connection that fails to open or is lost says so on stderr
("channel KEY: lost: ...; reconnecting in S s") and is opened again 1 to 3 s later, as a script that follows lives
for hours must, and says "subscribed" again. No compression, as py_receiver.

Prints "messages N" (all channels together) on stderr every --report seconds (default 5; 0: never) and once more
when SIGINT or SIGTERM stops it (or every channel's live ended), then exits 0 without closing the connections one
by one.
"""

import argparse
import asyncio
import os
import random
import signal
import sys

from websockets.asyncio.client import connect

# Benchmarks/peers/bcsvr_structs.py: the Structs and the decode/encode py_receiver.py uses (Benchmarks is no package).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "peers"))
from bcsvr_structs import LiveEnded, decode, encoder, msg_payloads  # noqa: E402

OPENING_AT_ONCE = 200
# How long a connection may take to open (TCP and the WebSocket upgrade), as `bcstream listen --connect-timeout` in
# run.sh: a replay answering the upgrades of thousands of connections at once takes more than websockets' 10 s.
OPEN_TIMEOUT = 30


class Counter:
    messages = 0
    lost = 0  # connections that failed or were lost, each opened again


async def follow(url, key, gate, out, counter):
    """One channel: its own connection, subscribed to its key, read until its live ends. A connection that fails
    to open or is lost is opened again after a pause, as a script that follows lives for hours must."""
    while True:
        try:
            async with gate:
                ws = await connect(url, compression=None, max_size=1 << 20, open_timeout=OPEN_TIMEOUT)
            async with ws:
                await ws.send(f"SUB\t{key}")
                print(f"subscribed to channel {key}", file=sys.stderr)
                async for frame in ws:
                    for payload in msg_payloads(frame):
                        value = decode(payload)
                        if isinstance(value, LiveEnded):
                            print(f"channel {key}: the live ended", file=sys.stderr)
                            return
                        counter.messages += 1
                        out.write(encoder.encode(value))
                        out.write(b"\n")
            why = "the server closed the connection"
        except Exception as error:  # noqa: BLE001 - reported per channel; the others go on
            why = f"{type(error).__name__}: {error}"
        counter.lost += 1
        pause = random.uniform(1, 3)
        print(f"channel {key}: lost: {why}; reconnecting in {pause:.1f} s", file=sys.stderr)
        await asyncio.sleep(pause)


async def report(counter, every):
    while True:
        await asyncio.sleep(every)
        print(f"messages {counter.messages}", file=sys.stderr)


async def main(url, keys, every):
    out = sys.stdout.buffer
    counter = Counter()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    gate = asyncio.Semaphore(OPENING_AT_ONCE)
    channels = [asyncio.create_task(follow(url, key, gate, out, counter)) for key in keys]
    reporter = asyncio.create_task(report(counter, every)) if every > 0 else None
    stopped = asyncio.create_task(stop.wait())
    everything = asyncio.gather(*channels)
    await asyncio.wait([stopped, everything], return_when=asyncio.FIRST_COMPLETED)
    out.flush()
    print(f"messages {counter.messages}", file=sys.stderr)
    sys.stderr.flush()
    # Thousands of close handshakes would take longer than the run: the kernel closes the sockets.
    os._exit(0)


def keys_of(path):
    with open(path, encoding="utf-8") as file:
        keys = [line.strip() for line in file]
    return [key for key in keys if key and not key.startswith("#")]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url")
    parser.add_argument("keys_file")
    parser.add_argument("--report", type=float, default=5.0, help="seconds between two counts on stderr (0: never)")
    arguments = parser.parse_args()
    channel_keys = keys_of(arguments.keys_file)
    if not channel_keys:
        sys.exit(f"py_pace_receiver.py: no keys in {arguments.keys_file}")
    asyncio.run(main(arguments.url, channel_keys, arguments.report))
