#!/usr/bin/env python3
"""The "ten-minute Python script" a user would write: `websockets` to subscribe, msgspec to decode.

Usage: py_receiver.py URL KEY

Sends `SUB<TAB>KEY`, decodes the JSON of every `MSG` line into typed msgspec Structs (a tagged union on `t`
for the common kinds; any other kind as plain JSON), encodes each value back to JSON on stdout, and stops
at the live-ended message (t=8). Prints "messages N" (the MSG lines before the t=8) on stderr.
"""

import asyncio
import sys

import msgspec
from websockets.asyncio.client import connect

# Numbers come as numbers or as strings on the wire, depending on the message: hence `int | str`.
IntOrStr = int | str


class Comment(msgspec.Struct, tag_field="t", tag=1):
    u: IntOrStr = ""
    ac: str = ""
    cm: str = ""
    created_at: IntOrStr = 0
    lci: IntOrStr | None = None
    is_moderator: bool | IntOrStr = 0
    iurl: str = ""
    burl: str = ""


class Join(msgspec.Struct, tag_field="t", tag=3):
    u: IntOrStr = ""
    ac: str = ""
    created_at: IntOrStr = 0
    online_viewer_num: IntOrStr | None = None
    iurl: str = ""


class RankedUser(msgspec.Struct):
    u: IntOrStr | None = None
    ac: str = ""


class Gift(msgspec.Struct, tag_field="t", tag=35):
    u: IntOrStr = ""
    ac: str = ""
    gift_id: IntOrStr = ""
    gift_title: str = ""
    count: IntOrStr = 1
    coins: IntOrStr = 0
    total_gift_coins: IntOrStr | None = None
    live_sent_gift_id: IntOrStr | None = None
    slot_id: IntOrStr | None = None
    rankings: list[dict] | None = None


class ViewerCount(msgspec.Struct, tag_field="t", tag=23):
    online_viewer_num: IntOrStr = 0
    total_viewer_num: IntOrStr = 0


class LiveEnded(msgspec.Struct, tag_field="t", tag=8):
    pass


Message = Comment | Join | Gift | ViewerCount | LiveEnded
typed = msgspec.json.Decoder(Message)
untyped = msgspec.json.Decoder()
encoder = msgspec.json.Encoder()


async def main(url, key):
    out = sys.stdout.buffer
    received = 0
    async with connect(url, compression=None, max_size=1 << 20) as ws:
        await ws.send(f"SUB\t{key}")
        async for frame in ws:
            for line in frame.split("\n"):  # not splitlines(): U+2028 in a comment is no line end
                if not line.startswith("MSG\t"):
                    continue
                _, _, payload = line.split("\t", 2)
                try:
                    value = typed.decode(payload)
                except msgspec.ValidationError:
                    value = untyped.decode(payload)  # a kind the script does not model
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
