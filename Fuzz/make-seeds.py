#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets other than `decoders` (Fuzz/<target>/corpus/), from the cases of
their Swift Testing suites: FrameReaderTests, MessageInflaterTests, ClientHandshakeTests, ServerHandshakeTests, BCSVRLineTests,
RecordingTests and ReplayLoaderTests, DecodeInputTests. Run it again after changing a case: `python3 Fuzz/make-seeds.py`.
Each seed is named after its case, so a run of the script rewrites the same files."""
import hashlib
import json
import os
import zlib

here = os.path.dirname(os.path.abspath(__file__))


def write(target, name, data):
    folder = os.path.join(here, target, "corpus")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as file:
        file.write(data if isinstance(data, bytes) else data.encode())


# frames: a settings byte (bit 0 deflate, bits 1-2 cap, bits 3-4 scratch, bits 5-7 cuts), then server frames.
def frame(payload, opcode=1, final=True, rsv1=False, masked=False):
    head = bytes([(0x80 if final else 0) | (0x40 if rsv1 else 0) | opcode])
    mask = 0x80 if masked else 0
    n = len(payload)
    if n < 126:
        head += bytes([mask | n])
    elif n <= 0xFFFF:
        head += bytes([mask | 126]) + n.to_bytes(2, "big")
    else:
        head += bytes([mask | 127]) + n.to_bytes(8, "big")
    return head + (b"\0\0\0\0" if masked else b"") + payload


def deflated(messages, reset=False):
    out, c = [], zlib.compressobj(9, zlib.DEFLATED, -15)
    for m in messages:
        if reset:
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
        data = c.compress(m) + c.flush(zlib.Z_SYNC_FLUSH)
        out.append(data[:-4])  # RFC 7692: the sender takes off 00 00 FF FF
    return out


msg = b'MSG\t118f91f:UdoBre1M\t{"t":23,"online_viewer_num":44}'
plain = {
    "stream": frame(msg) + frame(b"\x09\x08", 0x9) + frame(b"frag", final=False) + frame(b"", 0xA)
    + frame(b"mented", 0) + frame(b"x" * 300, 2) + frame(b""),
    "close-1000": frame(b"\x03\xe8bye", 0x8) + frame(b"after"),
    "close-bad-utf8": frame(b"\x03\xe8\xff", 0x8),
    "close-1-byte": frame(b"\x03", 0x8),
    "masked": frame(b"a", masked=True),
    "rsv2": b"\xa1\x00",
    "opcode-3": frame(b"a", 3),
    "ping-126": frame(b"\0" * 126, 0x9),
    "continuation-first": frame(b"a", 0),
    "text-in-fragments": frame(b"a", final=False) + frame(b"b"),
    "top-length-bit": b"\x81\x7f\x80" + b"\0" * 7,
    "length-64k": frame(b"y" * 70000)[:200],
    "not-utf8": frame(b"\xc3\x28"),
    "utf8-split": frame("日本 🎁".encode()[:5], final=False) + frame("日本 🎁".encode()[5:], 0),
}
for index, (name, data) in enumerate(plain.items()):
    write("frames", name, bytes([(index % 8) << 5 | (index % 3) << 1]) + data)
texts = [b'{"t":1}', b"zeros" + b"\0" * 3000, msg, msg]
for reset in (False, True):
    stream = b"".join(frame(d, rsv1=True) for d in deflated(texts, reset))
    write("frames", "deflate" + ("-reset" if reset else ""), bytes([0x01 | 1 << 3 | 2 << 5]) + stream)
bomb = deflated([b"\0" * 200000])[0]
write("frames", "deflate-bomb", bytes([0x01 | 1 << 1 | 2 << 3]) + frame(bomb, rsv1=True))
parts = deflated([msg])[0]
write("frames", "deflate-fragmented", bytes([0x01 | 3 << 5])
      + frame(parts[:5], rsv1=True, final=False) + frame(parts[5:], 0))
write("frames", "deflate-corrupt", bytes([0x01]) + frame(b"\xff\xff\xff", rsv1=True))

# server-frames: the same settings byte, then client frames: the plain and deflated streams above, masked.
def masked(stream_frames):
    out = b""
    for index, (payload, opcode, final, rsv1) in enumerate(stream_frames):
        key = bytes([(index * 37 + 1) & 0xFF, 0xA5, index & 0xFF, 0x3C])
        head = frame(payload, opcode, final, rsv1, masked=True)
        head = head[:len(head) - len(payload) - 4]
        out += head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))
    return out


client = {
    "stream": [(msg, 1, True, False), (b"\x09\x08", 0x9, True, False), (b"frag", 1, False, False),
               (b"", 0xA, True, False), (b"mented", 0, True, False), (b"x" * 300, 2, True, False),
               (b"", 1, True, False), (b"y" * 70000, 1, True, False)],
    "close-1000": [(b"\x03\xe8bye", 0x8, True, False), (b"after", 1, True, False)],
    "unmasked-after": [(msg, 1, True, False)],
    "not-utf8": [(b"\xc3\x28", 1, True, False)],
    "ping-flood": [(b"p" * 125, 0x9, True, False)] * 40,
}
for index, (name, frames) in enumerate(client.items()):
    data = masked(frames) + (frame(b"unmasked") if name == "unmasked-after" else b"")
    write("server-frames", name, bytes([(index % 8) << 5 | (index % 3) << 1]) + data)
write("server-frames", "unmasked", bytes([0]) + frame(msg))
for reset in (False, True):
    stream = masked([(d, 1, True, True) for d in deflated(texts, reset)])
    write("server-frames", "deflate" + ("-reset" if reset else ""), bytes([0x01 | 1 << 3 | 2 << 5]) + stream)
write("server-frames", "deflate-fragmented", bytes([0x01 | 3 << 5])
      + masked([(parts[:5], 1, False, True), (parts[5:], 0, True, False)]))

# server-handshake: a settings byte (bit 0 the server takes deflate, bits 1-3 cuts), then the request.
get = ("GET /chat HTTP/1.1\r\nHost: 127.0.0.1:9000\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
       "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n")
requests = {
    "ok": (0, get + "\r\n\x81\x80\x01\x02\x03\x04"),
    "deflate": (1, get + "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n"),
    "deflate-offers": (1 | 2 << 1, get + "Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=8; "
                       'server_no_context_takeover, permessage-deflate; server_max_window_bits="10", '
                       "permessage-deflate\r\n\r\n"),
    "deflate-bad": (1, get + "Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=16; x\r\n\r\n"),
    "version-8": (0, get.replace("Version: 13", "Version: 8") + "\r\n"),
    "no-key": (0, get.replace("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", "") + "\r\n"),
    "two-hosts": (3 << 1, get + "Host: other\r\n\r\n"),
    "post": (0, "POST / HTTP/1.1\r\n\r\n"),
    "tls-hello": (0, "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"),
    "escape-in-line": (0, "GET /\x1b[31m HTTP/1.1\r\n\r\n"),
}
for name, (settings, text) in requests.items():
    write("server-handshake", name, bytes([settings]) + text.encode("latin-1"))

# handshake: a settings byte (bit 0 offers deflate, bit 1 asks "chat", bits 2-4 cuts), then the answer.
accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
ok = ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      f"Sec-WebSocket-Accept: {accept}\r\n")
answers = {
    "ok": (0, ok + "\r\n\x81\x00"),
    "deflate": (1, ok + "Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover; "
                "client_max_window_bits=15\r\n\r\n"),
    "deflate-quoted": (1, ok + 'Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits="10"\r\n\r\n'),
    "deflate-twice": (1, ok + "Sec-WebSocket-Extensions: permessage-deflate, permessage-deflate\r\n\r\n"),
    "subprotocol": (2, ok + "Sec-WebSocket-Protocol: chat\r\n\r\n"),
    "404": (0, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"),
    "not-http": (0, "SSH-2.0-OpenSSH\r\n"),
    "wrong-accept": (0, ok.replace(accept, "x") + "\r\n"),
    "no-colon": (0, ok + "nonsense\r\n\r\n"),
    "lowercase": (4 << 2, ok.lower().replace(accept.lower(), accept).replace("http/1.1", "HTTP/1.1") + "\r\n"),
    "escape-in-status": (0, "HTTP/1.1 1\x1b[31m1 x\r\n\r\n"),
}
for name, (settings, text) in answers.items():
    write("handshake", name, bytes([settings]) + text.encode())

# bcsvr-lines: frames as a server (or a client) sends them.
lines = ['MSG\t118f91f:UdoBre1M\t{"t":8}', 'MSG\t118f91f:UdoBre1M\t{"cm":"a\tb"}', "MSG\tk\t", "ACK", "ACK\tword",
         "ACK\t", "ACK\ta\tb", "ERR\tbad key", "ERR", "ERR\tno\tsuch", "MSG", "MSG\tonly-key", "HELLO\tthere",
         "msg\tk\t{}", "ACK\r", "ACK\r\nMSG\tk\t{}\r\n", "\n\nACK\n\n\nERR\tx\n", "ACK\n \r\n\t\nACK\tw", "\r\n",
         'MSG\tk\t{"c":"日本 🎁"}\r\nACK\té', "SUB\t118f91f:UdoBre1M", "PING", "PING\tword",
         "MSG\t118f91f:UdoBre1M\t{\u0301}", "MSG\t118f91f:UdoBre1M\t{\"t\":1}\r\r", "MSG\tk\u0301\t{}"]
for line in lines:
    write("bcsvr-lines", hashlib.sha1(line.encode()).hexdigest()[:16], line)


# recordings: NDJSON as `listen --record` writes it, and the lines the loader tests hold.
def recorded(time, text):
    return json.dumps({"key": "118f91f:UdoBre1M", "text": text, "time": time}, ensure_ascii=False, sort_keys=True)


recording = "\n".join([
    recorded("2026-11-22T02:30:11.123Z", "ACK"),
    recorded("2026-11-22T02:30:11.623Z", 'MSG\t118f91f:UdoBre1M\t{"t":23,"online_viewer_num":44}'),
    '{"time":"2026-11-22T02:30:12Z","key":"118f91f:UdoBre1M"}', "", "not json at all",
    recorded("2026-11-22T02:30:14.123Z", 'MSG\t118f91f:UdoBre1M\t{"t":8}'),
    '{"time":"yesterday","key":"k","text":"ACK"}', "[1,2]", '{"time":"2026-11-22T02:30:15Z","key":"k","text":3}', ""])
tape = [r'{"key":"k:1","text":"MSG\tk:1\t{\"t\":1,\"cm\":\"\\u3053\\uD83C\\uDF38 \\\"q\\\" \\\\\"}","time":"2026-11-22T02:30:11.123Z"}',
        r'{"time":"2026-11-22T02:30:11Z","key":"é\u00e9","text":"ACK","binary":false}',
        r'{"time":"2026-11-22T02:30:11.5Z","key":"k","bytes":"AAEC/w==","binary":true}',
        r'{"time":"2026-11-22T02:30:11.123Z","key":"k","bytes":"AAEC","refused":"too big","size":9}',
        r'{"time":"2026-11-22T02:30:11.123Z","key":"k","text":"a","key":"second"}',
        r'{"time":"2026-11-22T02:30:11Z","key":"k","text":"\ud800"}',
        r'{"time":"2024-02-29T23:59:59.999Z","key":"k","text":"ACK"}',
        r'{"time":"1970-01-01T00:00:00.000Z","key":"k","text":"ACK"}',
        r'{"time":"2026-11-22T02:30:11.123+09:00","key":"k","text":"ACK"}']
write("recordings", "recording", recording)
write("recordings", "recording-crlf", recording.replace("\n", "\r\n"))
for index, line in enumerate(tape):
    write("recordings", f"tape-{index}", line + "\n")
# Messages as they come: the first fixtures of Tests/Payloads, one a line.
payloads = os.path.join(here, "..", "Tests", "Payloads")
fixtures = sorted(name for name in os.listdir(payloads) if name.endswith(".json"))[:12]
with_lines = []
for name in fixtures:
    with open(os.path.join(payloads, name), encoding="utf-8") as file:
        with_lines.append(json.dumps(json.load(file), ensure_ascii=False, separators=(",", ":")))
write("decode-input", "fixtures", "\n".join(with_lines) + "\n")

# decode-input: what `bcstream decode` reads, each shape of DecodeInput's comment, mixed.
decode = "\n".join([
    '{"t":23,"online_viewer_num":44}', 'MSG\t118f91f:UdoBre1M\t{"t":8}', "ACK", "ERR\tbad key", "PING", "SUB\tk:1",
    recorded("2026-11-22T02:30:11.123Z", 'MSG\tk:1\t{"t":8}\nACK'),
    '{"binary":true,"bytes":"AAEC","key":"k:1","time":"2026-11-22T02:30:11.123Z"}',
    '{"bytes":"TVNH","key":"k:1","refused":"larger than 1048576 bytes","time":"2026-11-22T02:30:11.123Z"}',
    '{"time":1,"key":2,"t":3}', "[1,2]", "garbage", "MSG\tonly-key", "  \t ", '\u3000{"t":1}\u3000'])
write("decode-input", "shapes", "\ufeff" + decode + "\n")
write("decode-input", "shapes-crlf", decode.replace("\n", "\r\n"))
write("decode-input", "not-utf8", b'{"t":1,"cm":"\xe9t\xe9"}\n\xf0\x9f\x8e\nACK\xc0\xaf\n')
write("decode-input", "binary", b"\x00\x01\x02ACK\n")
