#!/usr/bin/env python3
"""The Python script a user would write to follow many lives at once: `websockets` + msgspec, one connection and
one asyncio task per channel, every message decoded into typed msgspec Structs and encoded back to JSON on stdout.

Usage: py_pace_receiver.py URL KEYS_FILE [--report SECONDS]

KEYS_FILE holds one channel key a line (blank lines and # comments skipped). Each key gets its own task, which
connects (at most 200 handshakes at a time, as a script that opens thousands must, or the server's listen
backlog and handshake timeouts turn them away), sends `SUB<TAB>key`, prints "subscribed to channel KEY" on
stderr (the words `bcstream listen` uses, so the benchmark waits for both alike) and then, for every `MSG` line,
decodes and encodes exactly as Benchmarks/peers/py_receiver.py does (the model is Benchmarks/peers/bcsvr_structs.py,
shared). A channel whose live ends (t=8) stops; a connection that fails or closes says so on stderr
("channel KEY: lost: ...") and is not reopened (once every channel is over, the exit status is 1 if any was lost). No compression, as py_receiver.

Prints "messages N" (all channels together) on stderr every --report seconds (default 5; 0: never) and once more
when SIGINT or SIGTERM stops it, then exits 0 without closing the connections one by one.
"""

import argparse
import asyncio
import os
import signal
import sys

from websockets.asyncio.client import connect

# Benchmarks/peers/bcsvr_structs.py: the Structs and the decode/encode py_receiver.py uses (Benchmarks is no package).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "peers"))
from bcsvr_structs import LiveEnded, decode, encoder, msg_payloads  # noqa: E402

OPENING_AT_ONCE = 200


class Counter:
    messages = 0
    lost = 0


async def follow(url, key, gate, out, counter):
    """One channel: its own connection, subscribed to its key, read until its live ends or the link is lost."""
    try:
        async with gate:
            ws = await connect(url, compression=None, max_size=1 << 20)
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
        counter.lost += 1
        print(f"channel {key}: lost: the server closed the connection", file=sys.stderr)
    except Exception as error:  # noqa: BLE001 - reported per channel; the others go on
        counter.lost += 1
        print(f"channel {key}: lost: {type(error).__name__}: {error}", file=sys.stderr)


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
    # Thousands of close handshakes would take longer than the run: the kernel closes the sockets. Stopped by a
    # signal it exits 0; when every channel ended by itself, 1 if any of them was lost.
    os._exit(0 if stop.is_set() or not counter.lost else 1)


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
