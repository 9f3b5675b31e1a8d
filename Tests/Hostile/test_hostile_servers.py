"""Hostile servers against our client, `bcstream listen`.

Each server is a raw socket on 127.0.0.1 (wsraw.RawServer) whose handler does the upgrade and writes the frames
by hand, so that it can lie, flood and break off anywhere. Each test asserts that the listener survives (no
signal exit, no crash text, and it still takes a normal message afterwards), that stderr says what happened, and,
where the scenario is about memory, that its RSS stays bounded.
"""

import base64
import json
import os
import random
import re
import select
import socket
import struct
import threading
import time

import pytest

import wsraw
from conftest import MIB, cpu_seconds
from wsraw import OP_BINARY, OP_CONT, OP_TEXT, comment, msg_line

KEY = "k"
AFTER = msg_line(KEY, {"t": 1, "u": "1", "ac": "a", "cm": "after", "lci": "2"})
END = msg_line(KEY, {"t": 8})

# A listener holds at most 1 MiB of one message (the cap), 1,024 messages / 4 MiB waiting for its consumer, and
# its recording's 64 KiB prefix: nowhere near these bounds unless it buffers what it should refuse.
LISTENER_RSS_BOUND_MIB = 150
# Over what it had when it subscribed: the 1 MiB it may assemble, the 64 KiB it records, buffers. Holding a 16 MiB
# message, or a 2 MB one twice, would show.
OVERSIZE_GROWTH_MIB = 10


def serve_after(conn):
    """A well-behaved connection: the normal comment, then the end of the live; then wait for the client to go."""
    conn.accept_upgrade()
    conn.wait_sub()
    conn.send_text(AFTER)
    conn.send_text(END)
    conn.serve_until_closed(timeout=10)


def listen(procs, server, *extra, stdout="lines"):
    return procs.start("listen", server.url, "--key", KEY, *extra, stdout=stdout)


def stdout_has(proc, text):
    return any(text in line for line in proc.stdout.text().splitlines())


def record_lines(path):
    with open(path, encoding="utf-8") as file:
        return [json.loads(line) for line in file if line.strip()]


def sender(sock, data, log, name, chunk=1 << 16, pause=0.0, stop=None):
    """Sends `data` on its own socket object (a dup, so that the reader's timeouts do not apply), in chunks,
    quietly: the client is expected to stop reading and close; the error that ends the send is logged."""
    sock.settimeout(20)
    sent = 0
    try:
        while sent < len(data):
            if stop is not None and stop.is_set():
                break
            sock.sendall(data[sent:sent + chunk])
            sent += min(chunk, len(data) - sent)
            if pause:
                time.sleep(pause)  # the trickle's pace, not a wait for an event
        log.add("sent-all", name=name, bytes=sent)
    except OSError as error:
        log.add("send-stopped", name=name, bytes=sent, error=type(error).__name__)
    finally:
        sock.close()


# 1. Oversized messages


def oversized_payload(case):
    """The bytes of the first connection's message, as frames, for each case."""
    if case == "1MiB+1":
        return wsraw.frame(wsraw.sized_comment_line(KEY, (1 << 20) + 1))
    if case == "2MB":
        return wsraw.frame(wsraw.sized_comment_line(KEY, 2_000_000))
    if case == "16MiB":
        return wsraw.frame(wsraw.sized_comment_line(KEY, 16 << 20))
    if case == "2MB-in-100KB-fragments":
        line = wsraw.sized_comment_line(KEY, 2_000_000)
        pieces = [line[i:i + 100_000] for i in range(0, len(line), 100_000)]
        frames = [wsraw.frame(piece, OP_TEXT if i == 0 else OP_CONT, fin=(i == len(pieces) - 1))
                  for i, piece in enumerate(pieces)]
        assert len(frames) == 20
        return b"".join(frames)
    raise ValueError(case)


@pytest.mark.parametrize("case", ["1MiB+1", "2MB", "16MiB", "2MB-in-100KB-fragments"])
def test_oversized_message_is_refused_with_1009_and_the_session_goes_on(procs, raw_server, rss_sampler, tmp_path,
                                                                        case):
    data = oversized_payload(case)
    go = threading.Event()

    def handler(conn, n):
        if n > 1:
            return serve_after(conn)
        conn.accept_upgrade()
        conn.wait_sub()
        go.wait(10)  # the test has read the listener's RSS now that it is connected
        conn.reply_close = False  # the sender may be mid-frame: just read the client's close code
        thread = threading.Thread(target=sender, args=(conn.sock.dup(), data, server.log, "oversized"), daemon=True)
        thread.start()
        try:
            code = conn.serve_until_closed(timeout=20)
            server.log.add("first-ended", code=code)
        finally:
            conn.sock.shutdown(socket.SHUT_RDWR)
            thread.join(5)

    server = raw_server(handler)
    record = tmp_path / "session.ndjson"
    proc = listen(procs, server, "--record", record)
    rss = rss_sampler(proc.pid)
    server.log.wait("sub", 15)
    baseline = (proc.rss() or {}).get("VmRSS", 0)
    go.set()
    code = proc.wait(timeout=40)
    rss.stop()

    proc.assert_survived()
    assert code == 0, f"exit {code}; stderr:\n{proc.stderr.tail()}"
    assert stdout_has(proc, "after"), f"the normal comment after the reconnect was not printed:\n{proc.stdout.tail()}"
    first = server.log.wait("first-ended", 1)
    assert first["code"] == 1009, f"the client ended the first connection with {first['code']}, not a 1009 close"
    assert re.search(r"1009|larger than", proc.stderr.text()), f"stderr does not say why:\n{proc.stderr.tail()}"
    assert rss.max_kib < LISTENER_RSS_BOUND_MIB * MIB, rss.summary()
    growth = rss.max_kib - baseline
    assert growth < OVERSIZE_GROWTH_MIB * MIB, (
        f"RSS grew {growth / MIB:.1f} MiB over the {baseline / MIB:.1f} MiB it had when it subscribed: the refused "
        f"message was held; {rss.summary()}")

    refused = [line for line in record_lines(record) if "refused" in line]
    assert refused, f"no refused frame in the recording: {record.read_text()[:2000]}"
    frame = refused[0]
    assert frame.get("truncated") is True, frame
    assert len(base64.b64decode(frame["bytes"])) == 65536, {k: v for k, v in frame.items() if k != "bytes"}


def test_frame_announcing_2_pow_62_bytes_is_not_allocated(procs, raw_server, rss_sampler, tmp_path):
    stop = threading.Event()

    def trickle(sock):
        sock.settimeout(5)
        try:
            sock.sendall(wsraw.frame_header(1 << 62, OP_TEXT))
            for _ in range(100):  # at most 10 s
                if stop.wait(0.1):
                    break
                sock.sendall(b"MSG\tk\t{\"t\":1}"[:8])
            server.log.add("trickle-ended")
        except OSError as error:
            server.log.add("trickle-stopped", error=type(error).__name__)
        finally:
            sock.close()

    def handler(conn, n):
        if n > 1:
            return serve_after(conn)
        conn.accept_upgrade()
        conn.wait_sub()
        conn.reply_close = False
        thread = threading.Thread(target=trickle, args=(conn.sock.dup(),), daemon=True)
        thread.start()
        try:
            code = conn.serve_until_closed(timeout=15)
            server.log.add("first-ended", code=code)
        finally:
            stop.set()
            conn.sock.shutdown(socket.SHUT_RDWR)
            thread.join(5)

    server = raw_server(handler)
    proc = listen(procs, server, "--record", tmp_path / "session.ndjson")
    rss = rss_sampler(proc.pid)
    code = proc.wait(timeout=40)
    rss.stop()

    proc.assert_survived()
    assert code == 0, f"exit {code}; stderr:\n{proc.stderr.tail()}"
    first = server.log.wait("first-ended", 1)
    assert first["code"] != "timeout", "the client kept the connection open while the 2^62-byte frame trickled in"
    assert stdout_has(proc, "after"), f"the normal comment after the reconnect was not printed:\n{proc.stdout.tail()}"
    assert re.search(r"1009|larger than", proc.stderr.text()), f"stderr does not say why:\n{proc.stderr.tail()}"
    assert rss.max_kib < LISTENER_RSS_BOUND_MIB * MIB, rss.summary()


# 2. Flood against a slow reader


FLOOD_MAX_MESSAGES = 300_000
FLOOD_SECONDS = 15.0
FLOOD_STALL_SECONDS = 5.0
FLOOD_RSS_BOUND_MIB = 120
FLOOD_GROWTH_MARGIN_MIB = 8


def test_flood_to_a_slow_stdout_is_held_back_by_tcp(procs, raw_server, rss_sampler):
    stats = {"sent": 0, "longest_block": 0.0, "blocked_total": 0.0}

    def handler(conn, n):
        conn.accept_upgrade()
        conn.wait_sub()
        lock = threading.Lock()
        done = threading.Event()

        def reader():
            # Answers pings (and bcsvr PING) between whole frames, under the send lock.
            while not done.is_set():
                try:
                    fin, opcode, payload = conn.read_frame(timeout=0.5)
                except TimeoutError:
                    continue
                except (wsraw.PeerClosed, OSError):
                    return
                reply = None
                if opcode == wsraw.OP_PING:
                    reply = wsraw.frame(payload, wsraw.OP_PONG)
                elif opcode == OP_TEXT and payload.startswith(b"PING"):
                    reply = wsraw.frame(b"ACK" + payload[4:])
                elif opcode == wsraw.OP_CLOSE:
                    server.log.add("client-closed", code=struct.unpack("!H", payload[:2])[0] if payload else None)
                    return
                if reply:
                    with lock:
                        send_all(reply)

        sock = conn.sock.dup()
        sock.setblocking(False)

        def send_all(data):
            view = memoryview(data)
            while view:
                try:
                    sent = sock.send(view)
                    view = view[sent:]
                except BlockingIOError:
                    began = time.monotonic()
                    _, writable, _ = select.select([], [sock], [], 20)
                    blocked = time.monotonic() - began
                    stats["blocked_total"] += blocked
                    stats["longest_block"] = max(stats["longest_block"], blocked)
                    if not writable:
                        raise TimeoutError("the client read nothing for 20 s")

        thread = threading.Thread(target=reader, daemon=True)
        thread.start()
        began = time.monotonic()
        seq = 0
        try:
            while seq < FLOOD_MAX_MESSAGES and time.monotonic() - began < FLOOD_SECONDS:
                batch = []
                for _ in range(64):
                    seq += 1
                    batch.append(wsraw.frame(msg_line(KEY, comment("c", lci=str(seq)))))
                with lock:
                    send_all(b"".join(batch))
                stats["sent"] = seq
            with lock:
                send_all(wsraw.frame(END))
            server.log.add("flood-done", sent=seq)
            done.wait(40)
        finally:
            done.set()
            sock.close()

    server = raw_server(handler)
    proc = listen(procs, server, "--format", "ndjson", "--ping-interval", "120", stdout="pipe")
    fd = proc.popen.stdout.fileno()
    rss = rss_sampler(proc.pid, interval=0.1)
    started = time.monotonic()

    # Phase 1: nobody reads stdout for 5 s.
    server.log.wait("sub", 10)
    deadline = started + FLOOD_STALL_SECONDS
    while time.monotonic() < deadline and proc.alive:
        time.sleep(0.1)  # the test's own "not reading" phase
    checkpoint_a = (proc.rss() or {}).get("VmRSS", 0)
    blocked_in_phase1 = stats["longest_block"]

    # Phase 2: read slowly (16 KiB every 50 ms) until 15 s.
    received = bytearray()
    deadline = started + FLOOD_SECONDS
    while time.monotonic() < deadline and proc.alive:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            chunk = os.read(fd, 16384)
            if not chunk:
                break
            received += chunk
        time.sleep(0.05)  # the slow reader's pace
    checkpoint_b = (proc.rss() or {}).get("VmRSS", 0)

    # Phase 3: drain everything, checking the sequence as it comes.
    expected = 1
    ended = False
    problems = []

    def consume(complete_lines):
        nonlocal expected, ended
        for line in complete_lines:
            message = json.loads(line)
            if message.get("t") == 8:
                ended = True
                continue
            lci = int(message["message"]["lci"])
            if lci != expected and len(problems) < 5:
                problems.append(f"expected lci {expected}, got {lci}")
            expected = lci + 1

    drain_deadline = time.monotonic() + 35
    while time.monotonic() < drain_deadline:
        ready, _, _ = select.select([fd], [], [], 1)
        if ready:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            received += chunk
            cut = received.rfind(b"\n")
            if cut >= 0:
                consume(received[:cut].split(b"\n"))
                del received[:cut + 1]
    code = proc.wait(timeout=10)
    rss.stop()
    sent = server.log.wait("flood-done", 1)["sent"]

    facts = (f"server sent {sent} messages in {FLOOD_SECONDS:.0f} s at most; its longest blocked send "
             f"{stats['longest_block']:.2f} s (by 5 s: {blocked_in_phase1:.2f} s), blocked {stats['blocked_total']:.1f} s "
             f"in all; RSS {checkpoint_a / MIB:.1f} MiB at 5 s, {checkpoint_b / MIB:.1f} MiB at 15 s; {rss.summary()}")
    proc.assert_survived()
    assert code == 0, f"exit {code}; stderr:\n{proc.stderr.tail()}"
    assert not problems, f"messages missing or out of order: {problems}"
    assert ended and expected - 1 == sent, f"{expected - 1} of {sent} messages arrived (t=8 seen: {ended})"
    # TCP pushed back: the sender was held at least a second at a time (a debug build may fill its window
    # only after the first 5 s, so the moment is not asserted, only that it happened).
    assert stats['longest_block'] >= 1.0, f"the server never blocked for 1 s while stdout was not read: {facts}"
    assert rss.max_kib < FLOOD_RSS_BOUND_MIB * MIB, f"RSS over {FLOOD_RSS_BOUND_MIB} MiB: {facts}"
    assert checkpoint_b - checkpoint_a < FLOOD_GROWTH_MARGIN_MIB * MIB, f"RSS grew between 5 s and 15 s: {facts}"
    assert re.search(r"reading paused", proc.stderr.text()), (
        f"stderr never says that reading paused for the slow consumer:\n{proc.stderr.tail()}")


# 3. Duplicate keys


DUPLICATE_KEYS_SECONDS = 10


def test_a_megabyte_of_duplicate_keys_decodes_in_bounded_time(procs, raw_server):
    head, tail = '{"t":1,"u":"1",', '"ac":"a","cm":"x","lci":"1"}'
    prefix = f"MSG\t{KEY}\t"
    repeats = (1_000_000 - len(prefix) - len(head) - len(tail)) // len('"u":1,')
    dupes = prefix + head + '"u":1,' * repeats + tail
    assert repeats > 160_000 and len(dupes.encode()) < (1 << 20)
    normal = msg_line(KEY, comment("after-dupes", lci="2"))

    def handler(conn, n):
        conn.accept_upgrade()
        conn.wait_sub()
        conn.send_text(dupes)
        conn.send_text(normal)
        conn.send_text(END)
        conn.serve_until_closed(timeout=15)

    server = raw_server(handler)
    proc = listen(procs, server)
    try:
        code = proc.wait(timeout=DUPLICATE_KEYS_SECONDS + 5)
    except AssertionError:
        raise AssertionError(
            f"not done {DUPLICATE_KEYS_SECONDS + 5} s after starting (limit {DUPLICATE_KEYS_SECONDS} s) with {repeats} "
            f"duplicate keys, {cpu_seconds(proc.pid):.1f} s of CPU used; stdout: {proc.stdout.tail(3)!r}; stderr:\n"
            f"{proc.stderr.tail()}") from None
    elapsed = time.monotonic() - proc.started

    proc.assert_survived()
    assert code == 0, f"exit {code}; stderr:\n{proc.stderr.tail()}"
    assert stdout_has(proc, "after-dupes"), f"the comment after the duplicates was not printed:\n{proc.stdout.tail()}"
    assert elapsed < DUPLICATE_KEYS_SECONDS, f"took {elapsed:.1f} s with {repeats} duplicate keys"
    assert server.accepted == 1, "the listener reconnected over a message it should simply decode"


# 4. Terminal injection


HOSTILE_TEXTS = {
    "esc-clear": "\u001b[2Jcleared",
    "osc-title": "\u001b]0;title\u0007after-title",
    "cr": "real\rforged",
    "c1-csi": "\u009b31mred",
    "bidi": "abc\u202edcba",
    "nul": "nul\u0000byte",
    "lf": "two\nlines",
    "line-separator": "one\u2028two",
}

# What must never reach a terminal: C0 controls but TAB (LF is the line terminator, checked by counting lines),
# DEL, C1 (UTF-8 C2 80..C2 9F) and the bidi override U+202E.
FORBIDDEN = [rb"[\x00-\x08\x0b-\x1f\x7f]", rb"\xc2[\x80-\x9f]", "\u202e".encode()]


def injection_handler(conn, n):
    conn.accept_upgrade()
    conn.wait_sub()
    for i, (name, text) in enumerate(HOSTILE_TEXTS.items(), start=1):
        conn.send_text(msg_line(KEY, {"t": 1, "u": "1", "ac": f"{name}:{text}", "cm": text, "lci": str(i)}))
    # A message that does not decode (cm is an object), printed with its raw text.
    conn.send_text(msg_line(KEY, {"t": 1, "u": "1", "ac": "\u001b[2J", "cm": {"x": "\u001b]0;t\u0007\r"},
                                  "lci": "100"}))
    # Lines that only the status report quotes (stderr): ERR text, an unknown command, another channel's key.
    conn.send_text("ERR\t\u001b[2J\u001b]0;pwned\u0007\r\u009b")
    conn.send_text("EVIL\u001b[31m\rcommand\u202e")
    conn.send_text(f"MSG\tother\u001b[2J\u009b\t{{\"t\":1}}")
    conn.send_text(END)
    conn.serve_until_closed(timeout=10)


def forbidden_in(data):
    for pattern in FORBIDDEN:
        match = re.search(pattern, data)
        if match:
            return f"{match.group()!r} at byte {match.start()}: {data[max(0, match.start() - 60):match.start() + 60]!r}"
    return None


def test_terminal_controls_are_escaped_in_text_output(procs, raw_server):
    server = raw_server(injection_handler)
    proc = listen(procs, server, "--format", "text")
    code = proc.wait(timeout=20)

    proc.assert_survived()
    assert code == 0, f"exit {code}; stderr:\n{proc.stderr.tail()}"
    stdout, stderr = proc.stdout.raw(), proc.stderr.raw()
    assert forbidden_in(stdout) is None, f"stdout: {forbidden_in(stdout)}"
    assert forbidden_in(stderr) is None, f"stderr: {forbidden_in(stderr)}"
    lines = proc.stdout.snapshot()
    expected = len(HOSTILE_TEXTS) + 2  # the hostile comments, the undecodable one, t=8
    assert len(lines) == expected, (f"{len(lines)} stdout lines for {expected} messages:\n"
                                    + "\n".join(repr(line) for line in lines))
    for name in HOSTILE_TEXTS:
        assert sum(name.encode() + b":" in line for line in lines) == 1, f"{name}: not on exactly one line"
    assert re.search(r"ERR", proc.stderr.text()), f"the ERR line is not reported:\n{proc.stderr.tail()}"


def test_terminal_controls_round_trip_in_ndjson(procs, raw_server):
    server = raw_server(injection_handler)
    proc = listen(procs, server, "--format", "ndjson")
    code = proc.wait(timeout=20)

    proc.assert_survived()
    assert code == 0, f"exit {code}; stderr:\n{proc.stderr.tail()}"
    assert forbidden_in(proc.stderr.raw()) is None, f"stderr: {forbidden_in(proc.stderr.raw())}"
    seen = {}
    for line in proc.stdout.snapshot():
        assert b"\x1b" not in line and b"\r" not in line, f"raw control in an ndjson line: {line!r}"
        value = json.loads(line)  # every line is JSON
        message = value.get("message")
        if isinstance(message, dict) and isinstance(message.get("ac"), str) and ":" in message["ac"]:
            name = message["ac"].split(":", 1)[0]
            seen[name] = message
    for i, (name, text) in enumerate(HOSTILE_TEXTS.items(), start=1):
        assert name in seen, f"{name}: no ndjson line; stdout:\n{proc.stdout.tail()}"
        assert seen[name]["cm"] == text, f"{name}: cm {seen[name]['cm']!r} != {text!r}"
        assert seen[name]["ac"] == f"{name}:{text}", f"{name}: ac {seen[name]['ac']!r}"
        assert str(seen[name]["lci"]) == str(i)


# 5. Malformed handshakes


def garbage_bytes():
    return random.Random(7).randbytes(2048)


def misbehave(case, conn, n, log):
    if case == "http-200":
        conn.read_http()
        conn.send_raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello")
        conn.serve_until_closed(timeout=5)
    elif case == "wrong-accept":
        conn.accept_upgrade(accept=base64.b64encode(b"not the right key!!!").decode())
        conn.serve_until_closed(timeout=5)
    elif case == "garbage":
        conn.read_http()
        conn.send_raw(garbage_bytes())
        conn.serve_until_closed(timeout=5)
    elif case == "close-at-once":
        conn.close()
    elif case == "slow-drip":
        conn.read_http()
        response = (b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    b"Sec-WebSocket-Accept: xxxxxxxxxxxxxxxxxxxxxxxxxxxx\r\n\r\n")
        began = time.monotonic()
        for byte in response:
            if time.monotonic() - began > 15:
                break
            conn.send_raw(bytes([byte]))
            readable, _, _ = select.select([conn.sock], [], [], 0.5)  # one byte per 0.5 s, or the client hung up
            try:
                hung_up = readable and not conn.sock.recv(4096, socket.MSG_PEEK)
            except OSError:
                hung_up = True
            if hung_up:
                log.add("drip-abandoned", n=n, after=time.monotonic() - began)
                return
        log.add("drip-finished", n=n)
    elif case == "reset-mid-frame":
        conn.accept_upgrade()
        conn.wait_sub()
        whole = wsraw.frame(msg_line(KEY, comment("lost" * 50, lci="1")))
        conn.send_raw(whole[:len(whole) // 2])
        conn.reset()
    else:
        raise ValueError(case)


HANDSHAKE_CASES = {
    # case: (connections that misbehave, what stderr must say)
    "http-200": (2, r"HTTP 200"),
    "wrong-accept": (2, r"(?i)accept"),
    "garbage": (2, r"(?i)handshake|invalid|malformed|not a websocket|bad (http|response)"),
    "close-at-once": (2, r"(?i)closed|lost|reset|hung up|before"),
    "slow-drip": (2, r"(?i)timed out|timeout"),
    "reset-mid-frame": (1, r"(?i)lost|reset|1006"),
}


@pytest.mark.parametrize("case", list(HANDSHAKE_CASES))
def test_malformed_handshake_is_reported_and_retried(procs, raw_server, case):
    bad_connections, clear = HANDSHAKE_CASES[case]

    def handler(conn, n):
        if n <= bad_connections:
            return misbehave(case, conn, n, server.log)
        return serve_after(conn)

    server = raw_server(handler)
    proc = listen(procs, server, "--connect-timeout", "3")
    code = proc.wait(timeout=45)

    proc.assert_survived()
    assert code == 0, f"exit {code}; stderr:\n{proc.stderr.tail()}"
    assert server.accepted == bad_connections + 1, f"{server.accepted} connections"
    assert stdout_has(proc, "after"), f"what followed on reconnect was not printed:\n{proc.stdout.tail()}"
    stderr = proc.stderr.text()
    assert re.search(clear, stderr), f"stderr does not say what happened ({clear}):\n{proc.stderr.tail()}"
    retries = [line for line in stderr.splitlines() if re.search(r"(?i)retrying|reconnecting", line)]
    assert retries, f"no retrying/reconnecting line:\n{proc.stderr.tail()}"
    named = [line for line in retries if "127.0.0.1" in line and str(server.port) in line]
    assert named, f"no retrying/reconnecting line names 127.0.0.1 and port {server.port}:\n" + "\n".join(retries)


# 6. Binary frame, invalid UTF-8


def test_binary_frame_is_recorded_and_the_session_goes_on(procs, raw_server, tmp_path):
    payload = b"\x00\x01\x02\xffbinary\x1b[2J"

    def handler(conn, n):
        conn.accept_upgrade()
        conn.wait_sub()
        conn.send_frame(payload, OP_BINARY)
        conn.send_text(AFTER)
        conn.send_text(END)
        conn.serve_until_closed(timeout=10)

    server = raw_server(handler)
    record = tmp_path / "session.ndjson"
    proc = listen(procs, server, "--record", record)
    code = proc.wait(timeout=20)

    proc.assert_survived()
    assert code == 0, f"exit {code}; stderr:\n{proc.stderr.tail()}"
    assert stdout_has(proc, "after"), f"the comment after the binary frame was not printed:\n{proc.stdout.tail()}"
    assert server.accepted == 1, "the listener reconnected over a binary frame"
    assert re.search(r"(?i)binary", proc.stderr.text()), f"stderr does not mention the binary frame:\n{proc.stderr.tail()}"
    assert forbidden_in(proc.stderr.raw()) is None, f"stderr: {forbidden_in(proc.stderr.raw())}"
    binary = [line for line in record_lines(record) if line.get("binary") is True]
    assert binary, f"no binary frame in the recording: {record.read_text()[:2000]}"
    assert base64.b64decode(binary[0]["bytes"]) == payload


def test_invalid_utf8_text_is_recorded_refused_with_1007_and_reconnected(procs, raw_server, tmp_path):
    payload = b'MSG\tk\t{"t":1,"u":"1","ac":"a","cm":"\xff\xfe\xc0\xaf","lci":"1"}'

    def handler(conn, n):
        if n > 1:
            return serve_after(conn)
        conn.accept_upgrade()
        conn.wait_sub()
        conn.send_frame(payload, OP_TEXT)
        server.log.add("first-ended", code=conn.serve_until_closed(timeout=10))

    server = raw_server(handler)
    record = tmp_path / "session.ndjson"
    proc = listen(procs, server, "--record", record)
    code = proc.wait(timeout=30)

    proc.assert_survived()
    assert code == 0, f"exit {code}; stderr:\n{proc.stderr.tail()}"
    assert stdout_has(proc, "after"), f"the comment after the reconnect was not printed:\n{proc.stdout.tail()}"
    assert server.log.wait("first-ended", 1)["code"] == 1007, server.log.of("first-ended")
    assert re.search(r"1007|UTF-8", proc.stderr.text()), f"stderr does not say why:\n{proc.stderr.tail()}"
    refused = [line for line in record_lines(record) if "refused" in line]
    assert refused, f"no refused frame in the recording: {record.read_text()[:2000]}"
    assert base64.b64decode(refused[0]["bytes"]) == payload


# 7. Frames that break the protocol (the client reads its own frames: ClientFrameReader), and a ping flood


PROTOCOL_BREAKS = {
    "masked frame": (wsraw.frame(b"MSG\tk\t{}", masked=True), 1002),
    "reserved opcode": (wsraw.frame(b"x", opcode=0x3), 1002),
    "RSV1 without deflate": (wsraw.frame(b"x", rsv=4), 1002),
    "continuation first": (wsraw.frame(b"x", opcode=OP_CONT), 1002),
    "126-byte ping": (wsraw.frame_header(126, opcode=0x9) + bytes(126), 1002),
    # Read in one go: more pongs owed than the 32 the client holds, so the peer pings faster than it reads.
    "40 pings in one write": (b"".join(wsraw.frame(bytes(125), opcode=0x9) for _ in range(40)), 1008),
}


@pytest.mark.parametrize("case", list(PROTOCOL_BREAKS))
def test_a_frame_that_breaks_the_protocol_is_closed_and_the_session_goes_on(procs, raw_server, case):
    breaking, expected_code = PROTOCOL_BREAKS[case]

    def handler(conn, n):
        if n > 1:
            return serve_after(conn)
        conn.accept_upgrade()
        conn.wait_sub()
        conn.send_raw(breaking)
        conn.send_text(AFTER)  # never read: nothing after a broken frame counts
        server.log.add("first-ended", code=conn.serve_until_closed(timeout=10))

    server = raw_server(handler)
    proc = listen(procs, server)
    code = proc.wait(timeout=30)

    proc.assert_survived()
    assert code == 0, f"exit {code}; stderr:\n{proc.stderr.tail()}"
    assert server.log.wait("first-ended", 1)["code"] == expected_code, server.log.of("first-ended")
    assert server.accepted == 2, f"{server.accepted} connections"
    assert re.search(r"(?i)protocol", proc.stderr.text()), f"stderr does not say why:\n{proc.stderr.tail()}"
    assert len([line for line in proc.stdout.text().splitlines() if "after" in line]) == 1, proc.stdout.tail()


# 8. Pings: every one answered, in order (a burst past the cap is a flood: see PROTOCOL_BREAKS)


def test_ten_pings_back_to_back_get_ten_pongs_in_order(procs, raw_server):
    pongs = []

    def handler(conn, n):
        if n > 1:
            return serve_after(conn)
        conn.accept_upgrade()
        conn.wait_sub()
        conn.send_raw(b"".join(wsraw.frame(b"ping-%d" % i, opcode=0x9) for i in range(10)))
        while len(pongs) < 10:
            fin, opcode, payload = conn.read_frame(10)
            if opcode == 0xA:
                pongs.append(payload)
        server.log.add("pongs", payloads=[p.decode() for p in pongs])
        conn.send_text(AFTER)
        conn.send_text(END)
        conn.serve_until_closed(timeout=10)

    server = raw_server(handler)
    proc = listen(procs, server)
    code = proc.wait(timeout=30)

    proc.assert_survived()
    assert code == 0, f"exit {code}; stderr:\n{proc.stderr.tail()}"
    assert server.log.wait("pongs", 1)["payloads"] == ["ping-%d" % i for i in range(10)]
    assert stdout_has(proc, "after"), proc.stdout.tail()
    assert server.accepted == 1, f"{server.accepted} connections"

