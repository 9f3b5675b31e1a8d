"""The typed model the Python peers share: what a user's "ten-minute script" would declare with msgspec to read
bcsvr messages, and the decode/encode it does with them. Imported by py_receiver.py (one channel, as fast as the
sender goes) and Benchmarks/pace/py_pace_receiver.py (one connection and one task per channel, at a live's pace),
so that both pay exactly the same decode and encode per message.

  Comment, Join, Gift, ViewerCount, LiveEnded   msgspec Structs, a tagged union on `t`
  decode(payload)                               the JSON of a MSG line as a typed Struct, or as plain JSON (a
                                                dict) for a kind the script does not model
  encoder                                       msgspec's JSON encoder: encoder.encode(value) gives the NDJSON line
  msg_payloads(frame)                           the JSON of each `MSG<TAB>key<TAB>json` line of a text frame
"""

import msgspec

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


def decode(payload):
    """The message as its Struct, or as plain JSON when the script does not model its kind."""
    try:
        return typed.decode(payload)
    except msgspec.ValidationError:
        return untyped.decode(payload)


def msg_payloads(frame):
    """The JSON text of every MSG line of a text frame, in order (ACK, ERR and other lines are skipped)."""
    for line in frame.split("\n"):  # not splitlines(): U+2028 in a comment is no line end
        if line.startswith("MSG\t"):
            _, _, payload = line.split("\t", 2)
            yield payload
