"""Subscribers for Benchmarks/replay/subscribers.sh: COUNT WebSocket connections to a replay server, each
subscribing to its own key, each timing its first MSG from the moment its connection opened.

    python3 subscribers.py URL COUNT FIRST_INDEX RESULT_FILE

Connects at most 200 at a time. Once every subscriber has its first message (or 120 s passed), writes one JSON
object to RESULT_FILE (connected, got, the first-message delays in seconds, the time from start until the last
one) and holds the connections open until stdin closes, so that the server can be measured idle.
"""
import asyncio
import json
import os
import sys
import time

import websockets


async def subscriber(url, key, gate, delays, failures):
    try:
        async with gate:
            ws = await websockets.connect(url, compression=None, max_size=None, ping_interval=None,
                                          open_timeout=60)
        opened = time.monotonic()
        await ws.send(f"SUB\t{key}")
        while True:
            message = await ws.recv()
            if isinstance(message, str) and message.startswith("MSG\t"):
                delays.append(time.monotonic() - opened)
                break
        return ws
    except Exception as error:  # noqa: BLE001 - counted, the run reports how many failed and the first reason
        failures.append(f"{type(error).__name__}: {error}")
        return None


async def main():
    url, count, first, result_file = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    gate = asyncio.Semaphore(200)
    delays, failures = [], []
    start = time.monotonic()
    tasks = [asyncio.create_task(subscriber(url, f"bench-{first + i}", gate, delays, failures))
             for i in range(count)]
    done, pending = await asyncio.wait(tasks, timeout=120)
    last = time.monotonic() - start
    with open(result_file + ".tmp", "w") as out:
        json.dump({"count": count, "got": len(delays), "delays": delays, "until_all": last,
                   "failures": len(failures) + len(pending), "first_failure": failures[:1]}, out)
    os.rename(result_file + ".tmp", result_file)
    # Hold the connections until told to stop (stdin closes).
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    for task in pending:
        task.cancel()
    for ws in [t.result() for t in done if t.result() is not None]:
        ws.transport.abort()


asyncio.run(main())
