#!/usr/bin/env python3
"""The "ten-minute Python script" a user would write: `websockets` to subscribe, msgspec to decode.

Usage: py_receiver.py URL KEY

Sends `SUB<TAB>KEY`, decodes the JSON of every `MSG` line into typed msgspec Structs (a tagged union on `t`
for the common kinds; any other kind as plain JSON; the model is bcsvr_structs.py, shared with the pace
benchmark's receiver), encodes each value back to JSON on stdout, and stops at the live-ended message (t=8).
Prints "messages N" (the MSG lines before the t=8) on stderr.
"""

import asyncio
import sys

from websockets.asyncio.client import connect

from bcsvr_structs import LiveEnded, decode, encoder, msg_payloads


async def main(url, key):
    out = sys.stdout.buffer
    received = 0
    async with connect(url, compression=None, max_size=1 << 20) as ws:
        await ws.send(f"SUB\t{key}")
        async for frame in ws:
            for payload in msg_payloads(frame):
                value = decode(payload)
                if isinstance(value, LiveEnded):
                    print(f"messages {received}", file=sys.stderr)
                    return
                received += 1
                out.write(encoder.encode(value))
                out.write(b"\n")
    print(f"messages {received} (closed before the live ended)", file=sys.stderr)
    sys.exit(1)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
