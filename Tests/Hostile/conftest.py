"""Fixtures for the hostile-peer tests: the bcstream binary, loopback ports, processes that are always cleaned up
(their whole process group is killed on teardown), stdout/stderr captured line by line, RSS read from
/proc/<pid>/status, and waits that end at a deadline instead of sleeping.

The binary is $BCSTREAM_BIN, by default .build/debug/bcstream under the repository root (build it first with
`swift build --product bcstream`).
"""

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import wsraw  # noqa: E402

MIB = 1024  # KiB per MiB: RSS figures are in KiB, as /proc gives them

# Words that only a crash prints: Swift runtime traps, glibc heap checks, the Swift backtracer, sanitizers.
CRASH_MARKERS = [b"Fatal error", b"free():", b"double free", b"malloc():", b"corrupted", b"Segmentation fault",
                 b"Program crashed", b"Current stack trace", b"AddressSanitizer", b"Illegal instruction",
                 b"SIGSEGV", b"SIGABRT", b"SIGBUS", b"SIGILL"]

# The hard limit per test: a hang becomes a failure naming the test, never a stuck CI job.
TEST_DEADLINE = 60


def binary_path():
    value = os.environ.get("BCSTREAM_BIN")
    if not value:
        return REPO_ROOT / ".build" / "debug" / "bcstream"
    path = Path(value)
    if not path.is_absolute() and not path.exists():
        path = REPO_ROOT / path
    return path.resolve()


@pytest.fixture(scope="session")
def bcstream_bin():
    path = binary_path()
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.fail(f"no bcstream binary at {path}: build it (swift build --product bcstream) or set BCSTREAM_BIN")
    return str(path)


@pytest.fixture(autouse=True)
def test_deadline(request):
    """Fails a test that runs past TEST_DEADLINE seconds (SIGALRM in the main thread)."""
    def expired(signum, frame):
        raise TimeoutError(f"{request.node.name} ran over {TEST_DEADLINE} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(TEST_DEADLINE)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def free_port():
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((wsraw.LOOPBACK, 0))
        return sock.getsockname()[1]


@pytest.fixture(name="free_port")
def free_port_fixture():
    return free_port


# Output capture


class LineCollector:
    """Reads a stream line by line on a thread and keeps the lines (bytes, newline stripped). `keep(line)` may
    drop noisy lines (they are only counted), so that a flood of log lines does not fill the test's memory."""

    def __init__(self, stream, name, keep=None):
        self.name = name
        self.lines = []
        self.dropped = 0
        self.total = 0
        self.longest = 0
        self.closed = False
        self._keep = keep
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._read, args=(stream,), name=f"read-{name}", daemon=True)
        self._thread.start()

    def _read(self, stream):
        # Big reads, lines split per chunk and one lock per chunk: the test must never be the slow reader that
        # holds a flooding process back (or makes it buffer).
        fd = stream.fileno()
        pending = b""
        try:
            while True:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                pending += chunk
                *complete, pending = pending.split(b"\n")
                if complete:
                    self._add(complete)
            if pending:
                self._add([pending])
        except (OSError, ValueError):
            pass
        finally:
            with self._cond:
                self.closed = True
                self._cond.notify_all()

    def _add(self, lines):
        with self._cond:
            self.total += len(lines)
            self.longest = max(self.longest, max(map(len, lines)))
            if self._keep is None:
                self.lines.extend(lines)
            else:
                kept = [line for line in lines if self._keep(line)]
                self.lines.extend(kept)
                self.dropped += len(lines) - len(kept)
            self._cond.notify_all()

    def snapshot(self):
        with self._cond:
            return list(self.lines)

    def text(self):
        return "\n".join(line.decode("utf-8", "replace") for line in self.snapshot())

    def raw(self):
        return b"\n".join(self.snapshot())

    def tail(self, count=25, width=300):
        lines = self.snapshot()[-count:]
        return "\n".join(_clip(line.decode("utf-8", "replace"), width) for line in lines)

    def wait_for(self, pattern, timeout, start=0):
        """The first line from index `start` matching `pattern` (regex string or a predicate on the decoded line),
        waiting at most `timeout` seconds: (index, line). AssertionError with the stream's tail otherwise."""
        match = pattern if callable(pattern) else re.compile(pattern).search
        deadline = time.monotonic() + timeout
        with self._cond:
            index = start
            while True:
                while index < len(self.lines):
                    line = self.lines[index].decode("utf-8", "replace")
                    if match(line):
                        return index, line
                    index += 1
                left = deadline - time.monotonic()
                if left <= 0 or (self.closed and index >= len(self.lines)):
                    why = "the stream ended" if self.closed else f"{timeout} s passed"
                    raise AssertionError(f"{self.name}: no line matching {pattern!r} ({why}); last lines:\n"
                                         f"{self.tail()}")
                self._cond.wait(min(left, 0.5))

    def join(self, timeout=5):
        self._thread.join(timeout)


def _clip(text, width):
    return text if len(text) <= width else text[:width] + f"… ({len(text)} chars)"


# Memory


def read_rss(pid):
    """{"VmRSS": KiB, "VmHWM": KiB} from /proc/<pid>/status, or None once the process is gone."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            values = {}
            for line in status:
                name, _, rest = line.partition(":")
                if name in ("VmRSS", "VmHWM"):
                    values[name] = int(rest.split()[0])
            return values if "VmRSS" in values else None
    except (FileNotFoundError, ProcessLookupError, ValueError):
        return None


def cpu_seconds(pid):
    """User + system CPU time the process has used, from /proc/<pid>/stat (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
        return 0.0


class RSSSampler:
    """Samples a process's VmRSS every `interval` s on a thread until stopped or the process ends."""

    def __init__(self, pid, interval=0.05):
        self.pid = pid
        self.samples = []  # (monotonic time, VmRSS KiB)
        self.hwm = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(interval,), name=f"rss-{pid}", daemon=True)
        self._thread.start()

    def _run(self, interval):
        while not self._stop.is_set():
            values = read_rss(self.pid)
            if values is None:
                return
            self.samples.append((time.monotonic(), values["VmRSS"]))
            self.hwm = max(self.hwm, values.get("VmHWM", 0))
            self._stop.wait(interval)

    @property
    def max_kib(self):
        return max((rss for _, rss in self.samples), default=0)

    def latest(self):
        return self.samples[-1][1] if self.samples else 0

    def stop(self):
        self._stop.set()
        self._thread.join(timeout=2)

    def summary(self):
        if not self.samples:
            return "no RSS samples"
        return (f"RSS first {self.samples[0][1] / MIB:.1f} MiB, max {self.max_kib / MIB:.1f} MiB, "
                f"last {self.samples[-1][1] / MIB:.1f} MiB, VmHWM {self.hwm / MIB:.1f} MiB "
                f"({len(self.samples)} samples)")


# Processes


class Proc:
    """A bcstream process in its own process group, its stderr (and stdout, unless the test reads it itself)
    collected line by line."""

    def __init__(self, args, stdout="lines", keep_stdout=None, keep_stderr=None, env=None):
        self.args = args
        self.started = time.monotonic()
        self.popen = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE if stdout != "null" else subprocess.DEVNULL,
            stderr=subprocess.PIPE, start_new_session=True, cwd=str(REPO_ROOT),
            env={**os.environ, **(env or {})})
        self.pid = self.popen.pid
        self.stdout = LineCollector(self.popen.stdout, "stdout", keep_stdout) if stdout == "lines" else None
        self.stderr = LineCollector(self.popen.stderr, "stderr", keep_stderr)
        self.sent_signal = None

    @property
    def alive(self):
        return self.popen.poll() is None

    def rss(self):
        return read_rss(self.pid)

    def wait(self, timeout):
        """The exit status, waiting at most `timeout` s; AssertionError (with stderr's tail) if it is still running."""
        try:
            code = self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"bcstream still running after {timeout} s; stderr:\n{self.stderr.tail()}") from None
        self.stderr.join()
        if self.stdout:
            self.stdout.join()
        return code

    def signal(self, signum):
        if self.alive:
            self.sent_signal = signum
            try:
                os.killpg(self.pid, signum)
            except ProcessLookupError:
                pass

    def kill(self):
        if self.popen.poll() is None:
            try:
                os.killpg(self.pid, signal.SIGTERM)
                self.popen.wait(timeout=2)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
        # The group may hold children even when the leader has exited.
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.popen.stdout, self.popen.stderr):
            if stream:
                try:
                    stream.close()
                except OSError:
                    pass

    def crash_evidence(self):
        """What says the process crashed, or None: a signal exit it was not sent, or a crash marker on stderr."""
        code = self.popen.poll()
        if code is not None and code < 0 and -code != (self.sent_signal or 0):
            return f"killed by signal {-code}"
        raw = self.stderr.raw() + (self.stdout.raw() if self.stdout else b"")
        for marker in CRASH_MARKERS:
            if marker in raw:
                at = raw.index(marker)
                return f"{marker.decode()!r} in its output: {raw[max(0, at - 200):at + 300]!r}"
        return None

    def assert_survived(self):
        evidence = self.crash_evidence()
        assert evidence is None, f"bcstream crashed: {evidence}\nstderr:\n{self.stderr.tail(40)}"


class ProcessManager:
    def __init__(self, binary):
        self.binary = binary
        self.procs = []

    def start(self, *args, **options):
        proc = Proc([self.binary, *map(str, args)], **options)
        self.procs.append(proc)
        return proc

    def replay(self, *args, keep_stderr=None, timeout=15):
        """`bcstream replay ARGS --port 0`: the process and its port, read from the URL on stdout's first line."""
        proc = self.start("replay", *args, "--port", "0", keep_stderr=keep_stderr)
        _, line = proc.stdout.wait_for(r"^ws://127\.0\.0\.1:\d+/$", timeout)
        proc.port = int(re.search(r":(\d+)/", line).group(1))
        proc.url = line.strip()
        return proc

    def cleanup(self):
        for proc in self.procs:
            proc.kill()


@pytest.fixture
def procs(bcstream_bin):
    manager = ProcessManager(bcstream_bin)
    try:
        yield manager
    finally:
        manager.cleanup()


@pytest.fixture
def raw_server():
    """A factory of `wsraw.RawServer`s (handler(conn, n)); all are stopped on teardown."""
    servers = []

    def make(handler):
        server = wsraw.RawServer(handler)
        servers.append(server)
        return server

    try:
        yield make
    finally:
        for server in servers:
            server.stop()


@pytest.fixture
def rss_sampler():
    """A factory of `RSSSampler`s; all are stopped on teardown."""
    samplers = []

    def make(pid, interval=0.05):
        sampler = RSSSampler(pid, interval)
        samplers.append(sampler)
        return sampler

    try:
        yield make
    finally:
        for sampler in samplers:
            sampler.stop()
