"""Hostile clients against our server, `bcstream replay`.

Raw clients (wsraw.RawClient, or asyncio streams for the connection storms) do the upgrade and the masking by hand
so that they can stop reading, drip, reset mid-frame and send what no client should; the well-behaved clients that
check the server still serves are the `websockets` package. Each test asserts that the server survives (still
running, no crash text, and a normal client still gets a message), that its stderr says what happened, and, where
the scenario is about memory, that its RSS stays bounded.
"""

import asyncio
import base64
import os
import re
import socket
import struct
import threading
import time

from websockets.sync.client import connect as sync_connect

import wsraw
from conftest import MIB
from wsraw import OP_TEXT

SERVER_RSS_BOUND_MIB = 150
LONGEST_LOG_LINE = 16 * 1024  # far more than any report, far less than the megabyte a client may send


def quiet(line):
    """Keeps the replay log's interesting lines; the one line per message sent is only counted."""
    return not line.startswith(b"replay: sent ")


def replay(procs, *args):
    return procs.replay(*args, keep_stderr=quiet)


def first_message(url, key, timeout=5.0):
    """A well-behaved client: connects, subscribes and returns the first MSG line, within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    with sync_connect(url, open_timeout=timeout, close_timeout=1, max_size=None) as ws:
        ws.send(f"SUB\t{key}")
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no MSG on {key} within {timeout} s")
            text = ws.recv(timeout=left)
            if isinstance(text, str) and text.startswith("MSG\t"):
                return text


def assert_serves(server, key="well-behaved", timeout=5.0):
    assert server.alive, f"the server exited ({server.popen.returncode}); stderr:\n{server.stderr.tail()}"
    text = first_message(server.url, key, timeout)
    assert text.startswith(f"MSG\t{key}\t"), text


def stop_and_check(server):
    """Ctrl-C: the server must stop cleanly (exit 0) and show no crash."""
    server.assert_survived()
    assert server.alive, f"the server exited on its own ({server.popen.returncode}):\n{server.stderr.tail()}"
    server.signal(2)
    code = server.wait(timeout=10)
    server.assert_survived()
    assert code == 0, f"exit {code} after Ctrl-C; stderr:\n{server.stderr.tail()}"


def forbidden_in(data):
    for pattern in (rb"[\x00-\x08\x0b-\x1f\x7f]", rb"\xc2[\x80-\x9f]", "\u202e".encode()):
        match = re.search(pattern, data)
        if match:
            return f"{match.group()!r} at byte {match.start()}: {data[max(0, match.start() - 60):match.start() + 60]!r}"
    return None


class Receiver:
    """A well-behaved subscriber on its own thread (`websockets`), counting the MSG lines it receives."""

    def __init__(self, url, key):
        self.url, self.key = url, key
        self.count = 0
        self.times = []  # when each of the first 10,000 messages arrived
        self.error = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"receiver-{key}", daemon=True)
        self._thread.start()

    def _run(self):
        try:
            with sync_connect(self.url, open_timeout=5, close_timeout=1, max_size=None) as ws:
                ws.send(f"SUB\t{self.key}")
                while not self._stop.is_set():
                    try:
                        text = ws.recv(timeout=0.2)
                    except TimeoutError:
                        continue
                    if isinstance(text, str) and text.startswith("MSG\t"):
                        self.count += 1
                        if len(self.times) < 10_000:
                            self.times.append(time.monotonic())
                        else:
                            self.times[-1] = time.monotonic()
        except Exception as error:  # noqa: BLE001 - reported by the test
            if not self._stop.is_set():
                self.error = f"{type(error).__name__}: {error}"

    def received_after(self, moment):
        return sum(1 for at in self.times if at > moment)

    def stop(self):
        self._stop.set()
        self._thread.join(timeout=5)


# 7. A subscriber that never reads


def test_a_subscriber_that_never_reads_is_closed_and_memory_stays_bounded(procs, rss_sampler):
    server = replay(procs, "--loop", "--keep-open", "--interval", "0")
    rss = rss_sampler(server.pid, interval=0.1)
    began = time.monotonic()

    hog = wsraw.RawClient(server.port)
    hog.send_text("SUB\tk")  # and never a recv from now on
    same = Receiver(server.url, "k")
    other = Receiver(server.url, "other")
    try:
        _, line = server.stderr.wait_for(r"(?i)did not read|not reading", timeout=20)
        closed_at = time.monotonic()
        # Let the channel play on for a few seconds, then check everyone.
        deadline = max(began + 15, closed_at + 3)
        while time.monotonic() < deadline and server.alive:
            time.sleep(0.2)  # the observation window
        rss.stop()
        server.assert_survived()
        assert server.alive, f"the server exited:\n{server.stderr.tail()}"
        assert rss.max_kib < SERVER_RSS_BOUND_MIB * MIB, rss.summary()
        assert other.error is None and other.count > 0, f"a client of another key got nothing ({other.error})"
        assert same.error is None, f"the well-behaved client of the same key failed: {same.error}"
        assert same.received_after(closed_at) > 0, (
            f"the well-behaved client of the same key got nothing after the non-reader was closed ({same.count} "
            f"before); log line: {line}")
        assert "client#1" in line, f"the closed client is not named: {line}"
        assert_serves(server)
    finally:
        same.stop()
        other.stop()
        hog.close()
    stop_and_check(server)


# 8. 100,000 SUBs on one connection


def test_a_hundred_thousand_keys_on_one_connection_get_err_and_a_close(procs, rss_sampler):
    server = replay(procs, "--loop", "--keep-open", "--interval", "0.2")
    rss = rss_sampler(server.pid, interval=0.1)
    client = wsraw.RawClient(server.port)
    lines = [f"SUB\tkey{i}" for i in range(100_000)]
    frames = ["\n".join(lines[i:i + 25_000]) for i in range(0, len(lines), 25_000)]
    try:
        for text in frames:
            client.send_frame(text.encode(), OP_TEXT)
    except OSError:
        pass  # the server may close while the rest is on its way
    errs, code = [], "no close"
    deadline = time.monotonic() + 20
    try:
        while time.monotonic() < deadline:
            opcode, data = client.read_message(timeout=deadline - time.monotonic(), answer=False)
            if data.startswith(b"ERR"):
                errs.append(data[:200])
    except wsraw.PeerClosed as closed:
        code = closed.code
    except TimeoutError:
        code = "timeout"
    finally:
        client.close()

    server.assert_survived()
    assert errs, f"no ERR line before the close ({code})"
    assert code == 1008, f"closed with {code}, not 1008 (ERR lines: {len(errs)}, first {errs[:1]})"
    _, line = server.stderr.wait_for(r"more than 16 keys", timeout=5)
    assert_serves(server)
    rss.stop()
    assert rss.max_kib < SERVER_RSS_BOUND_MIB * MIB, rss.summary()
    stop_and_check(server)
    # One client breaking one limit is one event: the log must not repeat it for every line the client sent.
    refusals = sum(b"more than 16 keys" in line for line in server.stderr.snapshot())
    assert refusals <= 10, (f"the refusal was logged {refusals} times for one connection ({server.stderr.total} "
                            f"stderr lines): a client can flood the log; first: {line}")


# 9. 500 subscribers at once, then 2,000 connect/close cycles


async def subscribe_and_wait(url, key, all_done, results, limit):
    """Connects (at most `limit` at a time), subscribes, waits for its first MSG, then stays open until
    `all_done`."""
    from websockets.asyncio.client import connect

    async with limit:
        ws = await connect(url, open_timeout=20, close_timeout=2, max_size=None, ping_interval=None)
    try:
        await ws.send(f"SUB\t{key}")
        while True:
            text = await ws.recv()
            if isinstance(text, str) and text.startswith("MSG\t"):
                results.append(key)
                break
        await all_done.wait()
    finally:
        await ws.close()


async def cycle(port, i):
    """Connect, subscribe, close: politely (close frame, then wait for the server's) or abruptly (TCP RST)."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection(wsraw.LOOPBACK, port), 5)
    try:
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write((f"GET / HTTP/1.1\r\nHost: {wsraw.LOOPBACK}:{port}\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        assert b" 101 " in head.split(b"\r\n")[0] + b" ", head[:100]
        writer.write(wsraw.frame(f"SUB\tcyc{i % 50}", masked=True))
        await writer.drain()
        if i % 2 == 0:
            writer.write(wsraw.frame(wsraw.close_payload(1000), wsraw.OP_CLOSE, masked=True))
            await writer.drain()
            try:
                async with asyncio.timeout(2):
                    while await reader.read(65536):
                        pass
            except (TimeoutError, ConnectionError):
                pass
        else:
            sock = writer.get_extra_info("socket")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            writer.transport.abort()
    finally:
        writer.close()


async def cycles(port, first, last, concurrency=50):
    limit = asyncio.Semaphore(concurrency)
    failures = []

    async def one(i):
        async with limit:
            try:
                await cycle(port, i)
            except Exception as error:  # noqa: BLE001 - counted and reported
                failures.append(f"cycle {i}: {type(error).__name__}: {error}")

    await asyncio.gather(*(one(i) for i in range(first, last)))
    return failures


def test_five_hundred_subscribers_then_two_thousand_connect_close_cycles(procs, rss_sampler):
    server = replay(procs, "--loop", "--keep-open", "--interval", "0.3")
    rss = rss_sampler(server.pid, interval=0.1)

    async def crowd():
        all_done = asyncio.Event()
        results = []
        limit = asyncio.Semaphore(100)

        # Half share one key, half have a key each; at most 100 connect at a time, all 500 stay open together.
        tasks = [asyncio.create_task(subscribe_and_wait(server.url, "shared" if i % 2 == 0 else f"k{i}", all_done,
                                                        results, limit)) for i in range(500)]
        try:
            async with asyncio.timeout(30):
                while len(results) < 500:
                    failed = [task for task in tasks if task.done() and task.exception()]
                    assert not failed, f"{len(failed)} subscribers failed: {failed[0].exception()!r}"
                    await asyncio.sleep(0.1)  # polls the count; every task has its own deadline
        finally:
            all_done.set()
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 15)
        return results

    results = asyncio.run(crowd())
    assert len(results) == 500, f"{len(results)} of 500 subscribers got their first message"
    server.assert_survived()

    failures = asyncio.run(cycles(server.port, 0, 500))
    at_500 = server.rss()["VmRSS"]
    failures += asyncio.run(cycles(server.port, 500, 2000))
    at_2000 = server.rss()["VmRSS"]
    rss.stop()

    server.assert_survived()
    assert len(failures) < 20, f"{len(failures)} of 2,000 cycles failed: {failures[:5]}"
    assert_serves(server)
    assert rss.max_kib < SERVER_RSS_BOUND_MIB * MIB, rss.summary()
    assert at_2000 - at_500 < 10 * MIB, (f"RSS grew from {at_500 / MIB:.1f} MiB after 500 cycles to "
                                         f"{at_2000 / MIB:.1f} MiB after 2,000; {rss.summary()}")
    assert re.search(r"disconnected|left", server.stderr.text()), "the log never says a client left"
    stop_and_check(server)


# 10. Client frames that break rules


def test_an_oversized_client_message_is_closed_with_1009(procs, rss_sampler):
    server = replay(procs, "--loop", "--keep-open", "--interval", "0.2")
    rss = rss_sampler(server.pid, interval=0.1)
    client = wsraw.RawClient(server.port)
    client.send_text("SUB\tk")
    payload = b"SUB\t" + b"\x1b[2J" * 500_000  # 2 MB, terminal controls included
    done = threading.Event()

    def send():
        try:
            client.sock.dup().sendall(wsraw.frame(payload, OP_TEXT, masked=True))
        except OSError:
            pass
        done.set()

    threading.Thread(target=send, daemon=True).start()
    client.reply_close = False
    code = client.serve_until_closed(timeout=15)
    done.wait(5)
    client.close()

    server.assert_survived()
    assert code == 1009, f"the server ended the connection with {code}, not a 1009 close"
    _, line = server.stderr.wait_for(r"(?i)1009|larger than|over the \d+-byte limit|too big", timeout=5)
    assert_serves(server)
    rss.stop()
    assert server.stderr.longest < LONGEST_LOG_LINE, f"a log line of {server.stderr.longest} bytes"
    assert forbidden_in(server.stderr.raw()) is None, f"stderr: {forbidden_in(server.stderr.raw())}"
    assert rss.max_kib < SERVER_RSS_BOUND_MIB * MIB, rss.summary()
    stop_and_check(server)


def test_unknown_commands_with_terminal_controls_are_logged_escaped_and_bounded(procs):
    server = replay(procs, "--loop", "--keep-open", "--interval", "0.2")
    client = wsraw.RawClient(server.port)
    junk = "JUNK" + ("\u001b[2J\u009b\u202e" + "A" * 90) * 10_000  # about 1 MB, under the 1 MiB cap
    assert 900_000 < len(junk.encode()) < 1_040_000
    commands = ["\u001b[2Jclear", "HELLO\rWORLD", "\u009bEVIL", "\u202eevil", "BEL\u0007", "\u001b]0;title\u0007x",
                junk]
    for command in commands:
        client.send_text(command)
    client.send_text("PING\tafter-junk")
    reply = client.wait_text("ACK", timeout=10)
    client.close()

    server.assert_survived()
    assert reply == "ACK\tafter-junk", reply
    reports = []
    start = 0
    for _ in commands:
        start, line = server.stderr.wait_for(r"not bcsvr", timeout=5, start=start)
        reports.append(line)
        start += 1
    assert_serves(server)
    stderr = server.stderr.raw()
    assert forbidden_in(stderr) is None, f"stderr: {forbidden_in(stderr)}"
    assert server.stderr.longest < LONGEST_LOG_LINE, (
        f"a log line of {server.stderr.longest} bytes: the megabyte command was printed whole")
    stop_and_check(server)


def test_sub_keys_that_are_not_channel_keys_get_err_and_are_logged_escaped(procs):
    """A SUB key is checked as every key is: a TAB (a second field), an escape, a bidi override, a space, a
    C1 control, an over-long key. Each gets `ERR`, is not subscribed, and the log shows it escaped."""
    server = replay(procs, "--loop", "--keep-open", "--interval", "0.2")
    client = wsraw.RawClient(server.port)
    keys = ["k1\tvictim", "k\u001b[2J", "k\u202e1", "k 1", "k\u009b1", "k" * 300]
    replies = []
    for key in keys:
        client.send_text("SUB\t" + key)
        replies.append(client.wait_text("ERR", timeout=10))
    client.send_text("SUB\tgood")
    first = client.wait_text("MSG\tgood\t", timeout=10)
    client.close()

    assert all(reply.startswith("ERR\tSUB: ") for reply in replies), replies
    assert first.startswith("MSG\tgood\t"), first
    start = 0
    for _ in keys:
        start, _line = server.stderr.wait_for(r"sent SUB with", timeout=5, start=start)
        start += 1
    stderr = server.stderr.raw()
    assert b"subscribed to k" not in stderr, "a bad key was subscribed"
    assert forbidden_in(stderr) is None, f"stderr: {forbidden_in(stderr)}"
    assert_serves(server)
    stop_and_check(server)


def test_a_client_dripping_its_handshake_does_not_hold_the_server(procs):
    server = replay(procs, "--loop", "--keep-open", "--interval", "0.2")
    sock = socket.create_connection((wsraw.LOOPBACK, server.port), timeout=5)
    request = (f"GET / HTTP/1.1\r\nHost: {wsraw.LOOPBACK}:{server.port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
               f"Sec-WebSocket-Version: 13\r\n\r\n").encode()
    outcome = {}

    def drip():
        began = time.monotonic()
        try:
            for byte in request:
                if time.monotonic() - began > 30:
                    outcome["still-open"] = 30
                    return
                sock.sendall(bytes([byte]))
                sock.settimeout(0.5)  # one byte per 0.5 s, or the server hung up
                try:
                    if not sock.recv(4096):
                        outcome["dropped-after"] = time.monotonic() - began
                        return
                    outcome["answered"] = True
                except socket.timeout:
                    pass
            outcome["finished"] = time.monotonic() - began
        except OSError as error:
            outcome["dropped-after"] = time.monotonic() - began
            outcome["error"] = type(error).__name__
        finally:
            sock.close()

    dripper = threading.Thread(target=drip, daemon=True)
    dripper.start()
    began = time.monotonic()
    assert_serves(server)  # while the drip goes on
    served_in = time.monotonic() - began
    dripper.join(35)

    server.assert_survived()
    assert served_in < 5, f"a normal client waited {served_in:.1f} s behind the dripping one"
    assert "dropped-after" in outcome, (f"the server kept a connection that sent one byte per 0.5 s for over 30 s "
                                        f"without completing its upgrade: {outcome}")
    # The log line follows the drop through the server's activity stream: wait for it, briefly.
    server.stderr.wait_for(r"(?i)handshake|upgrade|timed out|too slow", timeout=5)
    stop_and_check(server)


def test_a_client_reset_mid_frame_is_logged_and_forgotten(procs):
    server = replay(procs, "--loop", "--keep-open", "--interval", "0.2")
    client = wsraw.RawClient(server.port)
    client.send_text("SUB\tk")
    client.wait_text("MSG\tk\t", timeout=5)
    whole = wsraw.frame(b"SUB\t" + b"x" * 1000, OP_TEXT, masked=True)
    client.send_raw(whole[:len(whole) // 2])
    client.reset()

    _, line = server.stderr.wait_for(r"client#1 (left|disconnected)", timeout=5)
    server.assert_survived()
    assert_serves(server, key="k")
    stop_and_check(server)
