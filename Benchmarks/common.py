"""What the benchmarks' Python scripts share, once: the fixtures they send, and the helpers that start, time and stop
their child processes. Standard library only.

The scripts are run by path (`python3 Benchmarks/sender/measure.py ...`), so each puts this folder on its path
before importing it:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import common

  fixture_frames(directory, who)   the fixtures' JSON as every sender sends them
  die_with_parent()                preexec_fn: SIGKILL when the helper that started the child dies
  cpu_seconds(pid)                 a process's CPU time (its CPU clock: every thread, also a zombie's)
  reap(child, timeout)             wait4 within a timeout: (exit code, rusage) or None
  wait_exit(pid)                   wait4 until it exits: (wait status, rusage)
  first_line(path, child)          the child's first stdout line, or None if it exited before writing one
  stop_on_signals(children)        SIGTERM/SIGINT kill the children, then exit 128+signal
  kill_children(children)          SIGKILL every child not yet waited for, and wait for it
  raise_on_alarm(seconds)          TimeoutError after SECONDS (signal.alarm(0) disarms it)
  print_table(header, body)        a markdown table, the first column left-aligned, the others right-aligned
"""

import ctypes
import json
import os
import signal
import sys
import time

# The kinds that end a live (t=8, t=123): a fixture of one would stop a listener early.
LIVE_ENDS = {8, 123, "8", "123"}
PR_SET_PDEATHSIG = 1


def ends_live(message):
    """Whether a decoded message is of a kind that ends a live (t=8 or t=123): left out of every corpus, or the
    receivers would stop early."""
    return isinstance(message, dict) and message.get("t") in LIVE_ENDS


def fixture_frames(directory, who):
    """The fixtures' JSON, one message per `*.json` file of DIRECTORY in name order (its folders, such as Invalid/,
    are not read), stripped of surrounding white space, compact as stored; the kinds that end a live are left out.
    Exits with "WHO: ..." when a file spans several lines (a bcsvr MSG line must be one line) or there is none."""
    frames = []
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if not name.endswith(".json") or not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            raw = f.read().strip()
        if b"\n" in raw or b"\r" in raw:
            sys.exit(f"{who}: {path} spans several lines; a bcsvr MSG line must be one line")
        if not ends_live(json.loads(raw)):
            frames.append(raw.decode("utf-8"))
    if not frames:
        sys.exit(f"{who}: no fixtures in {directory}")
    return frames


def corpus_frames(path, who):
    """The messages of a corpus file of one's own: one JSON message a line, or a bcsvr `MSG<TAB>key<TAB>json` line
    (the JSON is taken, whatever the key). Blank lines, other bcsvr lines (ACK, ERR...) and the kinds that end a live
    are left out. Exits with "WHO: ..." for a line that is neither, or when no message is left."""
    frames = []
    with open(path, "rb") as f:
        for number, raw in enumerate(f, 1):
            line = raw.rstrip(b"\r\n")
            if not line.strip():
                continue
            if line.startswith(b"MSG\t"):
                parts = line.split(b"\t", 2)
                if len(parts) < 3:
                    sys.exit(f"{who}: {path}:{number}: a MSG line without its JSON")
                line = parts[2]
            elif not line.lstrip().startswith(b"{"):
                continue  # ACK, ERR, PING: carry no message
            try:
                message = json.loads(line)
            except ValueError as error:
                sys.exit(f"{who}: {path}:{number}: not JSON ({error}); a corpus holds one message a line")
            if not ends_live(message):
                frames.append(line.decode("utf-8"))
    if not frames:
        sys.exit(f"{who}: no messages in {path} (one JSON message, or one MSG line, a line)")
    return frames


def die_with_parent():
    """In the child before exec: SIGKILL when this helper dies, however it dies, so nothing outlives a run."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def cpu_seconds(pid):
    """The process's CPU time, all its threads, dead ones included: its CPU-time clock (also for a zombie)."""
    return time.clock_gettime_ns(((~pid) << 3) | 2) / 1e9  # MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)


def reap(child, timeout):
    """wait4 for the child within `timeout` seconds: (exit code, rusage), or None if it is still running."""
    deadline = time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            child.returncode = os.waitstatus_to_exitcode(status)  # Popen must not signal a reaped pid
            return child.returncode, usage
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.01)


def wait_exit(pid):
    """wait4 for the process until it exits, through signals: (wait status, rusage). It is reaped after this, so a
    Popen of it wants its returncode set from the status."""
    while True:
        try:
            _, status, usage = os.wait4(pid, 0)
            return status, usage
        except InterruptedError:
            continue


def first_line(path, child):
    """The first line the child wrote to the file at PATH (its stdout), stripped, once it is whole; None if the child
    exited before (then its returncode is set)."""
    while True:
        with open(path, encoding="utf-8", errors="replace") as out:
            first = out.readline()
        if first.endswith("\n"):
            return first.strip()
        if reap(child, 0.02):
            return None


def kill_children(children):
    """SIGKILL every Popen in CHILDREN that has not been waited for, and wait for it."""
    for child in children:
        if child.returncode is None:
            child.kill()
            child.wait()


def stop_on_signals(children):
    """From now on SIGTERM and SIGINT kill the children (the list as it is then) and exit with 128 + the signal."""
    def stop(signum, _frame):
        kill_children(children)
        sys.exit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)


def _time_up(_signum, _frame):
    raise TimeoutError()


def raise_on_alarm(seconds):
    """TimeoutError is raised wherever the program is once SECONDS have passed; signal.alarm(0) disarms it."""
    signal.signal(signal.SIGALRM, _time_up)
    signal.alarm(seconds)


def print_table(header, body):
    """A markdown table of HEADER and the rows of BODY (strings): the first column left-aligned, the others
    right-aligned, each as wide as its widest cell."""
    widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(header)]

    def line(cells):
        return "| " + " | ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                 for i, (c, w) in enumerate(zip(cells, widths))) + " |"

    print(line(header))
    print("|" + "|".join("-" * (w + 2) if i == 0 else "-" * (w + 1) + ":" for i, w in enumerate(widths)) + "|")
    for b in body:
        print(line(b))
