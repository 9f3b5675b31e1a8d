"""Raw WebSocket peers for the hostile tests: the HTTP upgrade done by hand and frames written byte by byte, so
that a peer can break any rule (lying lengths, fragments, wrong accept keys, resets mid-frame).

Nothing here is the project's code. Everything binds or connects to 127.0.0.1 only, and every wait has a
deadline: a peer that misbehaves in a way the test did not expect ends the test with an error, never a hang.
"""

import base64
import hashlib
import json
import os
import re
import socket
import struct
import threading
import time

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
LOOPBACK = "127.0.0.1"

OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA


class PeerClosed(Exception):
    """The other side closed: `code` is the close frame's code, None when the TCP connection simply ended."""

    def __init__(self, code=None, reason=b""):
        super().__init__(f"peer closed (code {code}, reason {reason!r})")
        self.code = code
        self.reason = reason


def accept_key(key):
    """Sec-WebSocket-Accept for a Sec-WebSocket-Key (RFC 6455 §4.2.2)."""
    if isinstance(key, str):
        key = key.encode()
    return base64.b64encode(hashlib.sha1(key.strip() + GUID).digest()).decode()


def mask_bytes(payload, key):
    """XOR `payload` with the 4-byte mask `key`, fast enough for megabytes (one big-integer XOR)."""
    n = len(payload)
    if n == 0:
        return b""
    stream = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(stream, "big")).to_bytes(n, "big")


def frame_header(length, opcode=OP_TEXT, fin=True, masked=False, rsv=0):
    """A frame header announcing `length` payload bytes (any value up to 2^63-1: it may lie)."""
    b0 = (0x80 if fin else 0) | (rsv << 4) | opcode
    mbit = 0x80 if masked else 0
    if length < 126:
        return bytes([b0, mbit | length])
    if length < 65536:
        return bytes([b0, mbit | 126]) + struct.pack("!H", length)
    return bytes([b0, mbit | 127]) + struct.pack("!Q", length)


def frame(payload, opcode=OP_TEXT, fin=True, masked=False, rsv=0):
    """A whole frame. Server→client frames are not masked; client→server frames must be."""
    if isinstance(payload, str):
        payload = payload.encode()
    header = frame_header(len(payload), opcode, fin, masked, rsv)
    if masked:
        key = os.urandom(4)
        return header + key + mask_bytes(payload, key)
    return header + payload


def close_payload(code, reason=b""):
    return struct.pack("!H", code) + reason


def msg_line(key, obj):
    """A bcsvr `MSG\\t<key>\\t<json>` line with compact JSON."""
    return f"MSG\t{key}\t{json.dumps(obj, separators=(',', ':'), ensure_ascii=False)}"


def comment(cm, lci="1", ac="a", u="1"):
    return {"t": 1, "u": u, "ac": ac, "cm": cm, "lci": lci}


def sized_comment_line(key, total_bytes, cm_char="x"):
    """A `MSG` line of exactly `total_bytes` UTF-8 bytes: a comment whose text fills it."""
    empty = msg_line(key, comment(""))
    pad = total_bytes - len(empty.encode())
    if pad < 0:
        raise ValueError("too small")
    line = msg_line(key, comment(cm_char * pad))
    assert len(line.encode()) == total_bytes
    return line.encode()


class EventLog:
    """A thread-safe list of (kind, data) events that tests wait on with a deadline."""

    def __init__(self):
        self._events = []
        self._cond = threading.Condition()

    def add(self, kind, **data):
        with self._cond:
            self._events.append((time.monotonic(), kind, data))
            self._cond.notify_all()

    def snapshot(self):
        with self._cond:
            return list(self._events)

    def of(self, kind):
        return [data for _, k, data in self.snapshot() if k == kind]

    def wait(self, kind, timeout, pred=lambda data: True):
        """The first event of `kind` for which `pred` holds, waiting at most `timeout` s; AssertionError when none."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for _, k, data in self._events:
                    if k == kind and pred(data):
                        return data
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no {kind!r} event within {timeout} s; events: "
                                         f"{[(k, _short(d)) for _, k, d in self._events][-30:]}")
                self._cond.wait(left)


def _short(data):
    text = repr(data)
    return text if len(text) < 200 else text[:200] + "…"


class RawConn:
    """One TCP connection with hand-made WebSocket framing; works on either side (`masked` for a client)."""

    def __init__(self, sock, masked=False, log=None, n=0):
        self.sock = sock
        self.masked = masked
        self.buffer = bytearray()
        self.log = log or EventLog()
        self.n = n
        self.closed_code = None
        self.texts = []
        # Answer a close frame with one (False when another thread may be writing in the middle of a frame).
        self.reply_close = True

    # Reading

    def _fill(self, deadline):
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("deadline passed while reading")
        self.sock.settimeout(left)
        try:
            chunk = self.sock.recv(1 << 16)
        except socket.timeout as error:
            raise TimeoutError("deadline passed while reading") from error
        except (ConnectionResetError, BrokenPipeError) as error:
            raise PeerClosed(None, b"reset") from error
        if not chunk:
            raise PeerClosed(None, b"eof")
        self.buffer += chunk

    def _take(self, count, deadline):
        while len(self.buffer) < count:
            self._fill(deadline)
        data = bytes(self.buffer[:count])
        del self.buffer[:count]
        return data

    def read_http(self, timeout=10.0, limit=65536):
        """Reads an HTTP head (request or response): (first line, {lower-case name: value})."""
        deadline = time.monotonic() + timeout
        while b"\r\n\r\n" not in self.buffer:
            if len(self.buffer) > limit:
                raise AssertionError("HTTP head over 64 KiB")
            self._fill(deadline)
        end = self.buffer.index(b"\r\n\r\n") + 4
        head = bytes(self.buffer[:end]).decode("latin-1")
        del self.buffer[:end]
        lines = head.split("\r\n")
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        return lines[0], headers

    def read_frame(self, timeout=10.0, max_payload=64 << 20):
        """(fin, opcode, payload) of the next frame, unmasking it if masked. Nothing is consumed until the whole
        frame has arrived, so a timeout leaves the stream intact."""
        deadline = time.monotonic() + timeout
        while True:
            parsed = self._parse_frame(max_payload)
            if parsed is not None:
                return parsed
            self._fill(deadline)

    def _parse_frame(self, max_payload):
        buf = self.buffer
        if len(buf) < 2:
            return None
        b0, b1 = buf[0], buf[1]
        fin, opcode = bool(b0 & 0x80), b0 & 0x0F
        masked, length = bool(b1 & 0x80), b1 & 0x7F
        at = 2
        if length == 126:
            if len(buf) < 4:
                return None
            length, at = struct.unpack("!H", buf[2:4])[0], 4
        elif length == 127:
            if len(buf) < 10:
                return None
            length, at = struct.unpack("!Q", buf[2:10])[0], 10
        if length > max_payload:
            raise AssertionError(f"frame announces {length} bytes")
        key = None
        if masked:
            if len(buf) < at + 4:
                return None
            key, at = bytes(buf[at:at + 4]), at + 4
        if len(buf) < at + length:
            return None
        payload = bytes(buf[at:at + length])
        del buf[:at + length]
        if key:
            payload = mask_bytes(payload, key)
        return fin, opcode, payload

    def read_message(self, timeout=10.0, answer=True):
        """The next text or binary message, (opcode, bytes), reassembling fragments, answering pings with pongs
        and close with close (PeerClosed). With `answer`, a bcsvr `PING` text is answered with `ACK`."""
        deadline = time.monotonic() + timeout
        parts, first = [], None
        while True:
            fin, opcode, payload = self.read_frame(max(0.001, deadline - time.monotonic()))
            if opcode == OP_PING:
                self.send_frame(payload, OP_PONG)
                continue
            if opcode == OP_PONG:
                continue
            if opcode == OP_CLOSE:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                self.closed_code = code
                self.log.add("close", n=self.n, code=code, reason=payload[2:])
                if self.reply_close:
                    try:
                        self.send_frame(payload[:2], OP_CLOSE)
                    except OSError:
                        pass
                raise PeerClosed(code, payload[2:])
            if opcode != OP_CONT:
                first = opcode
            parts.append(payload)
            if fin:
                data = b"".join(parts)
                if first == OP_TEXT:
                    text = data.decode("utf-8", "replace")
                    self.texts.append(text)
                    self.log.add("text", n=self.n, text=text)
                    if answer and (text == "PING" or text.startswith("PING\t")):
                        self.send_text("ACK" + text[4:])
                        continue
                return first, data

    def wait_text(self, prefix, timeout=10.0):
        """Reads messages until a text one starts with `prefix`; returns it."""
        deadline = time.monotonic() + timeout
        while True:
            opcode, data = self.read_message(max(0.001, deadline - time.monotonic()))
            if opcode == OP_TEXT and data.startswith(prefix.encode()):
                return data.decode("utf-8", "replace")

    def wait_sub(self, timeout=10.0):
        """Waits for `SUB\\t<key>`; returns the key."""
        line = self.wait_text("SUB\t", timeout)
        key = line.split("\t", 1)[1].strip()
        self.log.add("sub", n=self.n, key=key, at=time.monotonic())
        return key

    def serve_until_closed(self, timeout=10.0):
        """Answers PING/pings and reads until the peer closes or `timeout`; returns the close code (None: EOF)."""
        deadline = time.monotonic() + timeout
        try:
            while True:
                self.read_message(max(0.001, deadline - time.monotonic()))
        except PeerClosed as closed:
            return closed.code
        except TimeoutError:
            return "timeout"

    # Writing

    def send_raw(self, data):
        self.sock.settimeout(30)
        self.sock.sendall(data)

    def send_frame(self, payload, opcode=OP_TEXT, fin=True):
        self.send_raw(frame(payload, opcode, fin, masked=self.masked))

    def send_text(self, text):
        self.send_frame(text.encode() if isinstance(text, str) else text, OP_TEXT)

    def send_close(self, code=1000, reason=b""):
        self.send_frame(close_payload(code, reason), OP_CLOSE)

    # Server side

    def accept_upgrade(self, timeout=10.0, accept=None, status="101 Switching Protocols"):
        """Reads the client's upgrade request and answers 101 with the right (or the given) accept key."""
        _, headers = self.read_http(timeout)
        key = headers.get("sec-websocket-key", "")
        self.send_raw((f"HTTP/1.1 {status}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                       f"Sec-WebSocket-Accept: {accept or accept_key(key)}\r\n\r\n").encode())
        self.log.add("open", n=self.n)
        return headers

    # Ending

    def reset(self):
        """Closes with SO_LINGER 0: the peer gets a TCP RST, no FIN, no close frame."""
        try:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass
        self.close()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class RawServer:
    """A TCP server on 127.0.0.1 (free port) that hands each accepted connection to `handler(conn, n)` on its own
    thread, n counting from 1. Errors in a handler become "handler-error" events, never a hang."""

    def __init__(self, handler):
        self.handler = handler
        self.log = EventLog()
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((LOOPBACK, 0))
        self.sock.listen(128)
        self.port = self.sock.getsockname()[1]
        self.url = f"ws://{LOOPBACK}:{self.port}/"
        self.connections = []
        self._stop = threading.Event()
        self._threads = []
        self._accepter = threading.Thread(target=self._accept_loop, name="raw-server-accept", daemon=True)
        self._accepter.start()

    def _accept_loop(self):
        n = 0
        self.sock.settimeout(0.1)
        while not self._stop.is_set():
            try:
                sock, _ = self.sock.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            n += 1
            conn = RawConn(sock, masked=False, log=self.log, n=n)
            self.connections.append(conn)
            self.log.add("accept", n=n)
            thread = threading.Thread(target=self._run, args=(conn, n), name=f"raw-server-{n}", daemon=True)
            self._threads.append(thread)
            thread.start()

    def _run(self, conn, n):
        try:
            self.handler(conn, n)
        except PeerClosed as closed:
            self.log.add("peer-closed", n=n, code=closed.code)
        except Exception as error:  # noqa: BLE001 - reported to the test through the log
            if not self._stop.is_set():
                self.log.add("handler-error", n=n, error=f"{type(error).__name__}: {error}")
        finally:
            conn.close()
            self.log.add("done", n=n)

    @property
    def accepted(self):
        return len(self.log.of("accept"))

    def stop(self):
        self._stop.set()
        try:
            self.sock.close()
        except OSError:
            pass
        for conn in list(self.connections):
            conn.close()
        for thread in self._threads:
            thread.join(timeout=2)
        self._accepter.join(timeout=2)


class RawClient(RawConn):
    """A client connection to 127.0.0.1:port with a hand-made upgrade and masked frames."""

    def __init__(self, port, timeout=10.0, handshake=True, path="/"):
        sock = socket.create_connection((LOOPBACK, port), timeout=timeout)
        super().__init__(sock, masked=True)
        self.port = port
        self.status = None
        if handshake:
            self.handshake(timeout, path)

    def upgrade_request(self, path="/"):
        self.key = base64.b64encode(os.urandom(16)).decode()
        return (f"GET {path} HTTP/1.1\r\nHost: {LOOPBACK}:{self.port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {self.key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()

    def handshake(self, timeout=10.0, path="/"):
        self.send_raw(self.upgrade_request(path))
        self.status, headers = self.read_http(timeout)
        if " 101 " not in self.status + " ":
            raise AssertionError(f"upgrade refused: {self.status}")
        if headers.get("sec-websocket-accept") != accept_key(self.key):
            raise AssertionError(f"wrong accept key from the server: {headers}")
        return headers


def bad_bytes(data, patterns=(rb"\x1b", rb"\r", rb"\xc2[\x80-\x9f]", "\u202e".encode())):
    """The first forbidden byte sequence found in `data` and its offset, or None."""
    for pattern in patterns:
        match = re.search(pattern, data)
        if match:
            return pattern, match.start()
    return None
