#!/usr/bin/env python3
"""Helpers for run.sh: one timed run of N busy channels, and the table.

  measure.py run --bcstream BIN --recording FILE --channels N --per M --log DIR --out FILE
                 [--ping-interval SECONDS] [--no-compression] [--timeout SECONDS]
      Starts `BIN replay FILE --speed max --keep-open` (stdin /dev/null; stopped with SIGINT once the listener
      exited: on its own it would stop soon after the FIRST channel finished) and waits for its URL on the first
      stdout line. Writes N keys (bench:0 … bench:N-1) to DIR, then
      runs `BIN listen URL --keys-file KEYS --format ndjson --ping-interval S [--no-compression]` with stdout to
      /dev/null: every key plays the whole recording (M messages then {"t":8}) from its own subscription, and the
      listener exits once every channel's live ended. Measured: the listener's wall time (start to exit), its CPU
      (user + system, every thread, from wait4's rusage) and peak RSS (ru_maxrss); the replay server's CPU over the
      same window (its process CPU clock just before the listener starts and right after it exits, as
      Benchmarks/sender/measure.py reads it: Benchmarks/common.py's cpu_seconds). From the listener's stderr: the
      final count ("N messages: …"), the channels that ended ("the live ended"), the connections opened
      ("connected to") and any reconnect, timeout or dead-link line; the first of those stops the listener
      (SIGKILL) and fails the run. Writes one JSON object to --out; the children's stderr goes to
      DIR/channels-N.*.err.

  measure.py table --results FILE --compression on|off
      One markdown table of the runs in FILE (one JSON object a line) made with compression on or off. A run whose
      listener was stopped on a dead link shows when, and dashes.
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

# Benchmarks/common.py: the fixtures and the process helpers the benchmarks share (Benchmarks is no package).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import (cpu_seconds, die_with_parent, first_line, kill_children, raise_on_alarm,  # noqa: E402
                    reap, stop_on_signals, wait_exit)

# What `bcstream listen` prints on stderr when a link drops, times out or is given up (BCListenerEvent and
# BCListenerFailure descriptions, as ListenSession prints them): any of these means the keepalive or the link
# failed during the run.
KEEPALIVE_TROUBLE = re.compile(
    r"reconnecting in|retrying in|lost the connection|connection to .* lost|no ACK to PING|the link is dead"
    r"|giving up after|rejected the connection|\breconnects?\b")


def run(args):
    base = os.path.join(args.log, f"channels-{args.channels}")
    keys = base + ".keys"
    with open(keys, "w") as f:
        f.write("".join(f"bench:{i}\n" for i in range(args.channels)))
    children = []

    stop_on_signals(children)
    raise_on_alarm(args.timeout)
    result = {"channels": args.channels, "per_channel": args.per, "messages": args.channels * args.per,
              "compression": not args.no_compression, "ping_interval": args.ping_interval}
    try:
        with open(base + ".replay.out", "wb") as out, open(base + ".replay.err", "wb") as err:
            sender = subprocess.Popen([args.bcstream, "replay", args.recording, "--speed", "max", "--keep-open"],
                                      stdin=subprocess.DEVNULL, stdout=out, stderr=err, preexec_fn=die_with_parent)
        children.append(sender)
        url = first_line(base + ".replay.out", sender)
        if url is None:
            sys.exit(f"measure.py: replay exited before it listened (status {sender.returncode})")
        if not re.match(r"ws://127\.0\.0\.1:\d+/$", url):
            sys.exit(f"measure.py: replay printed no URL first: {url!r}")

        listen = [args.bcstream, "listen", url, "--keys-file", keys, "--format", "ndjson",
                  "--ping-interval", str(args.ping_interval)] + (["--no-compression"] if args.no_compression else [])
        with open(base + ".listen.err", "wb") as err:
            before = cpu_seconds(sender.pid)
            started = time.monotonic()
            client = subprocess.Popen(listen, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                                      preexec_fn=die_with_parent)
        children.append(client)
        # A link that drops loses what was in flight (replay resumes a channel where it left, past the frames
        # the dead connection held), so a channel whose {"t":8} was among them never ends: the first drop,
        # timeout or dead-link line stops the listener, the run is failed, and it does not wait for --timeout.
        # The signal goes through a pidfd, which cannot reach another process once the listener is reaped.
        pidfd = os.pidfd_open(client.pid)
        done = threading.Event()
        killed = []

        def watch():
            while not done.wait(0.1):
                with open(base + ".listen.err", encoding="utf-8", errors="replace") as err:
                    if KEEPALIVE_TROUBLE.search(err.read()):
                        killed.append(time.monotonic() - started)
                        signal.pidfd_send_signal(pidfd, signal.SIGKILL)
                        return

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        status, usage = wait_exit(client.pid)
        wall = time.monotonic() - started
        done.set()
        watcher.join()
        os.close(pidfd)
        after = cpu_seconds(sender.pid)  # a zombie's clock still reads; it is not reaped before this
        client.returncode = os.waitstatus_to_exitcode(status)

        # Replay runs with --keep-open: without it, and without a terminal, it stops half a second after the
        # first channel finished playing (waitUntilAChannelFinished), and with many channels the others are
        # not done by then. So it is stopped here, with SIGINT as Ctrl-C would (its clients are gone by now),
        # and killed if it has not exited within 10 s.
        sender.send_signal(signal.SIGINT)
        stopped = False
        ended = reap(sender, 10)
        if ended is None:
            stopped = True
            sender.kill()
            ended = reap(sender, 5)
        sender_status, _ = ended
    except TimeoutError:
        kill_children(children)
        sys.exit(f"measure.py: {args.channels} channels: killed after {args.timeout} s")
    signal.alarm(0)

    with open(base + ".listen.err", encoding="utf-8", errors="replace") as err:
        stderr = err.read()
    counted = re.findall(r"^(\d+) messages?[:;]", stderr, re.M)
    result.update({
        "wall": wall,
        "listener_cpu": usage.ru_utime + usage.ru_stime,
        "listener_user": usage.ru_utime,
        "listener_sys": usage.ru_stime,
        "listener_maxrss_kib": usage.ru_maxrss,  # KiB on Linux
        "listener_status": client.returncode,
        # The count includes each channel's {"t":8}.
        "received": int(counted[-1]) - args.channels if counted else None,
        "ended": len(re.findall(r"the live ended", stderr)),
        "connected": len(re.findall(r"connected to ", stderr)),
        "keepalive_trouble": [line for line in stderr.splitlines() if KEEPALIVE_TROUBLE.search(line)][:5],
        "paused": len(re.findall(r"reading paused", stderr)),
        "killed_after": killed[0] if killed else None,
        "replay_cpu": after - before,
        "replay_status": sender_status,
        "replay_stopped": stopped,
    })
    with open(args.out, "w") as out:
        json.dump(result, out)
    return 0


def table(args):
    rows = [json.loads(line) for line in open(args.results) if line.strip()]
    rows = [r for r in rows if r["compression"] == (args.compression == "on")]
    header = ["channels", "messages", "wall s", "messages/s", "listener CPU µs/msg", "listener CPU %",
              "replay CPU µs/msg", "peak RSS MiB"]
    body = []
    for r in rows:
        n = r["messages"]
        if r.get("killed_after") is not None:
            body.append([f"{r['channels']}", f"{n:,}", f"dead link at {r['killed_after']:.1f}", "—", "—", "—", "—",
                         f"{r['listener_maxrss_kib'] / 1024:.1f}"])
            continue
        body.append([
            f"{r['channels']}",
            f"{n:,}",
            f"{r['wall']:.2f}",
            f"{n / r['wall']:,.0f}",
            f"{r['listener_cpu'] / n * 1e6:.2f}",
            f"{r['listener_cpu'] / r['wall'] * 100:.0f}%",
            f"{r['replay_cpu'] / n * 1e6:.2f}",
            f"{r['listener_maxrss_kib'] / 1024:.1f}",
        ])
    widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(header)]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths)) + " |")
    print("|" + "|".join("-" * (w + 1) + ":" for w in widths) + "|")
    for b in body:
        print("| " + " | ".join(c.rjust(w) for c, w in zip(b, widths)) + " |")
    return 0


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("run")
    p.add_argument("--bcstream", required=True)
    p.add_argument("--recording", required=True)
    p.add_argument("--channels", type=int, required=True)
    p.add_argument("--per", type=int, required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--ping-interval", type=float, default=0.5)
    p.add_argument("--no-compression", action="store_true")
    p.add_argument("--timeout", type=int, default=600)
    p = sub.add_parser("table")
    p.add_argument("--results", required=True)
    p.add_argument("--compression", choices=["on", "off"], required=True)
    args = parser.parse_args()
    sys.exit({"run": run, "table": table}[args.what](args))


if __name__ == "__main__":
    main()
