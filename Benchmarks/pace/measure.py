#!/usr/bin/env python3
"""Helpers for run.sh: measure one receiver at a live's pace, and print the table.

  measure.py run --name NAME --channels N --rate R --replay-pid PID --replay-log FILE --stderr FILE
                 --results FILE [--warmup S] [--seconds S] [--start-timeout S] -- COMMAND...
      Starts COMMAND (a receiver subscribing to N channels of the replay), its stdout into a file whose lines it
      counts (one NDJSON line a message), its stderr to the --stderr file. Waits until it said
      "subscribed to channel KEY" for N distinct keys, then --warmup seconds more plus one channel's interval (N / R: every channel
      is then in its rhythm), then measures over --seconds rounded up to a whole number of intervals: the receiver's CPU time (utime + stime of
      /proc/PID/stat, every thread), the lines it wrote, and the replay's CPU time and the messages it logged as
      sent ("replay: sent ..." lines of --replay-log); after the window its peak and current resident memory (VmHWM,
      VmRSS). Stops the receiver with SIGINT (killed if still there 20 s later) and appends one JSON line to
      --results. Exits 1, saying why on stderr, when the receiver ends early, does not subscribe every channel
      within --start-timeout, writes nothing in the window, or loses a connection once every channel was
      subscribed (connections that fail while they all open, and are opened again, are only told in the table).

  measure.py table --results FILE
      The table of every run (see README.md, "Reading the table"), then the notes on what fell short.
"""

import argparse
import json
import math
import os
import re
import signal
import subprocess
import sys
import threading
import time

# Benchmarks/common.py: the process helpers and the table the benchmarks share (Benchmarks is no package).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import die_with_parent, kill_children, print_table, stop_on_signals  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
SUBSCRIBED = "subscribed to channel "
# What a receiver says when a channel's link is in trouble: bcstream listen's notes ("lost the connection",
# "connection to ... lost", "cannot reach", "the server sent ERR", "reading paused") and py_pace_receiver.py's
# ("channel KEY: lost: ...").
TROUBLE = re.compile(r"\blost\b|cannot reach|sent ERR|reading paused|reconnecting")
# Below this share of the target rate a row is flagged: the replay (or the receiver) did not keep the pace.
SHORT_OF_RATE = 0.95
# The replay's own count of log entries it could not write in time.
LEFT_OUT = re.compile(rb"replay: (\d+) log entr(?:y|ies) left out")


def cpu_seconds(pid):
    """utime + stime of /proc/PID/stat: every thread of the process, those that ended included."""
    with open(f"/proc/{pid}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def status_kib(pid, *names):
    """The named fields of /proc/PID/status (VmHWM, VmRSS: in KiB; Threads: a count)."""
    found = {}
    with open(f"/proc/{pid}/status") as file:
        for line in file:
            name, _, value = line.partition(":")
            if name in names:
                found[name] = int(value.split()[0])
    return [found.get(name, 0) for name in names]


class LineCounter(threading.Thread):
    """Follows the file a receiver writes its stdout to (as `listen > live.ndjson` does: a file never holds its
    writer up, where a pipe's reader would be part of the measure) and counts its line ends, until stopped."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.path = path
        self.lines = 0
        self.stopping = threading.Event()

    def run(self):
        with open(self.path, "rb") as file:
            while True:
                chunk = file.read(1 << 20)
                if chunk:
                    self.lines += chunk.count(b"\n")
                elif self.stopping.wait(0.02):
                    self.lines += file.read().count(b"\n")
                    return

    def stop(self):
        self.stopping.set()


class StderrWatch:
    """Follows a growing stderr file: the channels said "subscribed to channel KEY" for (each counted once: a
    channel says it again after a reconnection), and the lines that tell of trouble."""

    def __init__(self, path):
        self.file = open(path, "rb")  # noqa: SIM115 - read as it grows, closed by the process's end
        self.rest = b""
        self.keys = set()
        self.trouble = 0
        self.first_trouble = None

    @property
    def subscribed(self):
        return len(self.keys)

    def poll(self):
        self.rest += self.file.read()
        *lines, self.rest = self.rest.split(b"\n")
        for raw in lines:
            line = raw.decode("utf-8", "replace")
            if line.startswith(SUBSCRIBED):
                self.keys.add(line[len(SUBSCRIBED):].strip())
            elif TROUBLE.search(line):
                self.trouble += 1
                self.first_trouble = self.first_trouble or line.strip()

    def take_trouble(self):
        """The trouble seen so far, (count, first line), and a fresh count from here on."""
        seen = (self.trouble, self.first_trouble)
        self.trouble, self.first_trouble = 0, None
        return seen


def sent_lines(path, start, end):
    """The messages the replay logged as sent between two sizes of its log ("replay: sent ..." lines, whole lines
    only), and the log entries it said it left out meanwhile (its log's reader behind: nearly all of them sends)."""
    with open(path, "rb") as log:
        log.seek(start)
        text = log.read(end - start)
    sent = skipped = 0
    # A line cut at either end is not counted.
    for line in text.split(b"\n")[1:-1]:
        if line.startswith(b"replay: sent "):
            sent += 1
        elif match := LEFT_OUT.match(line):
            skipped += int(match.group(1))
    return sent, skipped


def run(args):
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    interval = args.channels / args.rate
    problem = None
    stdout_path = args.stderr + ".stdout"
    with open(args.stderr, "wb") as stderr, open(stdout_path, "wb") as stdout:
        started = time.monotonic()
        child = subprocess.Popen(command, stdout=stdout, stderr=stderr, stdin=subprocess.DEVNULL,
                                 preexec_fn=die_with_parent)
    stop_on_signals([child])
    counter = LineCounter(stdout_path)
    counter.start()
    watch = StderrWatch(args.stderr)
    result = {"name": args.name, "channels": args.channels, "rate": args.rate, "interval": interval}
    try:
        # 1. Every channel subscribed.
        deadline = started + args.start_timeout
        while watch.subscribed < args.channels:
            if child.poll() is not None:
                raise Failure(f"ended (status {child.returncode}) after {watch.subscribed} of {args.channels} "
                              "subscriptions")
            if time.monotonic() > deadline:
                trouble, first = watch.take_trouble()
                raise Failure(f"only {watch.subscribed} of {args.channels} channels subscribed within "
                              f"{args.start_timeout:.0f} s" + (f"; {trouble} line(s) of trouble on stderr, the first: "
                                                              f"{first}" if trouble else ""))
            time.sleep(0.05)
            watch.poll()
        result["startup"] = time.monotonic() - started
        # Connections that failed while thousands opened at once, and were opened again: told, not a failure.
        result["startup_trouble"], result["first_startup_trouble"] = watch.take_trouble()

        # 2. Warm-up: every channel in its rhythm.
        settle(child, watch, args.warmup + interval)

        # 3. The window: a whole number of intervals, so that every channel sends the same number of messages in it
        # whatever its phase (19,000 channels subscribed within a few seconds send in bursts 3.8 s apart).
        window = interval * math.ceil(args.seconds / interval - 1e-9)
        before = snapshot(child.pid, args.replay_pid, args.replay_log, counter)
        settle(child, watch, window)
        after = snapshot(child.pid, args.replay_pid, args.replay_log, counter)
        result["hwm_kib"], result["rss_kib"], result["threads"] = status_kib(child.pid, "VmHWM", "VmRSS",
                                                                             "Threads")
        wall = after["time"] - before["time"]
        result.update(
            wall=wall,
            messages=after["lines"] - before["lines"],
            cpu=after["cpu"] - before["cpu"],
            replay_cpu=after["replay_cpu"] - before["replay_cpu"],
        )
        result["replay_sent"], result["replay_log_skipped"] = sent_lines(args.replay_log, before["log_size"],
                                                                         after["log_size"])
        if result["messages"] == 0:
            raise Failure(f"wrote no message in the {wall:.0f} s window")
    except Failure as failure:
        problem = str(failure)
    finally:
        watch.poll()  # what it said before it was told to stop
        stop(child)
        counter.stop()
        counter.join(timeout=5)
        os.unlink(stdout_path)
    result["trouble"], result["first_trouble"] = watch.trouble, watch.first_trouble
    if watch.trouble and not problem:
        problem = (f"{watch.trouble} line(s) of trouble on stderr once every channel was subscribed, the first: "
                   f"{watch.first_trouble}")
    result["problem"] = problem
    with open(args.results, "a") as results:
        results.write(json.dumps(result) + "\n")
    if problem:
        print(f"measure.py: {args.name}, {args.channels:,} channels: {problem}", file=sys.stderr)
        return 1
    return 0


class Failure(Exception):
    pass


def settle(child, watch, seconds):
    """Sleeps SECONDS, failing as soon as the receiver ends."""
    until = time.monotonic() + seconds
    while (left := until - time.monotonic()) > 0:
        time.sleep(min(0.25, left))
        watch.poll()
        if child.poll() is not None:
            raise Failure(f"ended (status {child.returncode}) during the run")


def snapshot(pid, replay_pid, replay_log, counter):
    return {
        "time": time.monotonic(),
        "cpu": cpu_seconds(pid),
        "lines": counter.lines,
        "replay_cpu": cpu_seconds(replay_pid),
        "log_size": os.stat(replay_log).st_size,
    }


def stop(child):
    if child.poll() is None:
        child.send_signal(signal.SIGINT)
        try:
            child.wait(timeout=20)
        except subprocess.TimeoutExpired:
            print(f"measure.py: pid {child.pid} still there 20 s after SIGINT: killed", file=sys.stderr)
    kill_children([child])


def table(args):
    rows = [json.loads(line) for line in open(args.results)]
    python = {r["channels"]: r for r in rows if r["name"] == "python" and not r.get("problem")}
    smallest = {}
    for r in rows:
        if not r.get("problem") and "hwm_kib" in r:
            smallest.setdefault(r["name"], r)
            if r["channels"] < smallest[r["name"]]["channels"]:
                smallest[r["name"]] = r
    header = ["channels", "receiver", "msg/s received", "CPU µs/msg", "CPU % of a core", "peak RSS MiB",
              "KiB/channel", "CPU ×Python", "RSS ×Python", "start-up s", "replay CPU %", "replay sent/s"]
    body, notes = [], []
    for r in rows:
        label = f"{r['channels']:,}"
        if r.get("problem") and "messages" not in r:
            body.append([label, r["name"], "failed"] + [""] * (len(header) - 3))
            notes.append(f"{r['name']} at {label} channels failed: {r['problem']}")
            continue
        rate = r["messages"] / r["wall"]
        per = r["cpu"] / max(r["messages"], 1)
        short = rate < SHORT_OF_RATE * r["rate"]
        base = smallest.get(r["name"])
        if base and base["channels"] < r["channels"]:
            per_channel = f"{(r['hwm_kib'] - base['hwm_kib']) / (r['channels'] - base['channels']):.1f}"
        else:
            per_channel = "—"
        py = python.get(r["channels"])
        py_per = py["cpu"] / max(py["messages"], 1) if py else None
        body.append([
            label,
            r["name"],
            f"{rate:,.0f}" + (" !" if short else ""),
            f"{per * 1e6:.1f}",
            f"{100 * r['cpu'] / r['wall']:.1f}",
            f"{r['hwm_kib'] / 1024:.1f}",
            per_channel,
            f"{per / py_per:.2f}" if py_per else "n/a",
            f"{r['hwm_kib'] / py['hwm_kib']:.2f}" if py else "n/a",
            f"{r['startup']:.1f}",
            f"{100 * r['replay_cpu'] / r['wall']:.0f}",
            f"{(r['replay_sent'] + r['replay_log_skipped']) / r['wall']:,.0f}",
        ])
        if r["replay_log_skipped"]:
            notes.append(f"the replay's log left out {r['replay_log_skipped']:,} entries while {r['name']} was measured "
                         f"at {label} channels: counted as sent")
        if short:
            sent = (r["replay_sent"] + r["replay_log_skipped"]) / r["wall"]
            who = ("the replay did not send at the pace" if sent < SHORT_OF_RATE * r["rate"]
                   else "the replay sent at the pace but the receiver fell behind")
            notes.append(f"{r['name']} at {label} channels received {rate:,.0f}/s of {r['rate']:,.0f}/s: {who} "
                         f"(replay sent {sent:,.0f}/s at {100 * r['replay_cpu'] / r['wall']:.0f}% CPU)")
        if r.get("startup_trouble"):
            notes.append(f"{r['name']} at {label} channels: {r['startup_trouble']:,} connection(s) failed during "
                         f"start-up and were opened again, the first: {r['first_startup_trouble']}")
        if r.get("problem"):
            notes.append(f"{r['name']} at {label} channels: {r['problem']}")
    print_table(header, body)
    if notes:
        print()
        for note in notes:
            print(f"! {note}")
    return 0


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("run")
    p.add_argument("--name", required=True)
    p.add_argument("--channels", type=int, required=True)
    p.add_argument("--rate", type=float, required=True)
    p.add_argument("--replay-pid", type=int, required=True)
    p.add_argument("--replay-log", required=True)
    p.add_argument("--stderr", required=True)
    p.add_argument("--results", required=True)
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--start-timeout", type=float, default=120.0)
    p.add_argument("command", nargs=argparse.REMAINDER)
    p = sub.add_parser("table")
    p.add_argument("--results", required=True)
    args = parser.parse_args()
    sys.exit({"run": run, "table": table}[args.what](args))


if __name__ == "__main__":
    main()
