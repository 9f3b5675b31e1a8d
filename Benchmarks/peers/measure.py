#!/usr/bin/env python3
"""Helpers for run.sh: time one receiver, and print the table.

  measure.py run --out FILE --stderr FILE --timeout SECONDS -- COMMAND...
      Runs COMMAND (stdout inherited: run.sh points it at /dev/null), waits for it with wait4 and writes one
      JSON object to --out: exit status, wall seconds, user+sys CPU seconds and peak RSS (ru_maxrss) of that
      process alone, from start to exit. Its stderr goes to the --stderr file. Killed on SIGTERM/SIGINT or
      after --timeout, together with the command. Exits with the command's status.

  measure.py record --name NAME --out FILE --stderr FILE --sender-line LINE --results FILE
      Appends the run to the results (one JSON line) with the messages the receiver got before the live
      ended, read from its stderr: "messages N" (py_receiver, lws_count) or bcstream's final summary
      ("N messages: ..., 1 liveEnded; ...", which counts the t=8 too), and the sender's CPU and wall time for
      it (its "served ..." line). Prints the count.

  measure.py table --results FILE --messages N --baseline NAME
      The table, with each receiver's CPU compared with the baseline's.
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time

# Benchmarks/common.py: the fixtures and the process helpers the benchmarks share (Benchmarks is no package).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import print_table, stop_on_signals, wait_exit  # noqa: E402


def run(args):
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    with open(args.stderr, "wb") as stderr:
        started = time.monotonic()
        child = subprocess.Popen(command, stderr=stderr)

    stop_on_signals([child])
    timed_out = []

    def time_up(_signum, _frame):
        timed_out.append(True)
        child.kill()

    signal.signal(signal.SIGALRM, time_up)
    signal.alarm(args.timeout)
    status, usage = wait_exit(child.pid)
    wall = time.monotonic() - started
    signal.alarm(0)
    if timed_out:
        with open(args.stderr, "a") as stderr:
            stderr.write(f"measure.py: killed after {args.timeout} s\n")
    result = {
        "status": os.waitstatus_to_exitcode(status),
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "user": usage.ru_utime,
        "sys": usage.ru_stime,
        "maxrss_kib": usage.ru_maxrss,  # KiB on Linux
    }
    with open(args.out, "w") as out:
        json.dump(result, out)
    return result["status"]


def received(stderr_path):
    text = open(stderr_path, encoding="utf-8", errors="replace").read()
    mine = re.findall(r"^messages (\d+)", text, re.M)
    if mine:
        return int(mine[-1])
    summary = re.findall(r"^(\d+) messages?\b(.*)$", text, re.M)
    if summary:
        total, rest = summary[-1]
        ended = re.search(r"\b(\d+) liveEnded\b", rest)
        return int(total) - (int(ended.group(1)) if ended else 0)
    return 0


def record(args):
    result = json.load(open(args.out))
    result["name"] = args.name
    result["received"] = received(args.stderr)
    served = dict(field.split("=", 1) for field in args.sender_line.split()[1:] if "=" in field)
    result["sender_cpu"] = float(served["cpu"]) if "cpu" in served else None
    result["sender_wall"] = float(served["wall"]) if "wall" in served else None
    with open(args.results, "a") as results:
        results.write(json.dumps(result) + "\n")
    print(result["received"])
    return 0


def table(args):
    rows = [json.loads(line) for line in open(args.results)]
    base = next((r for r in rows if r["name"] == args.baseline), None)
    base_per = base["cpu"] / max(base["received"], 1) if base else None
    header = ["receiver", "messages", "CPU µs/message", "messages/s (wall)", "peak RSS MiB",
              f"CPU ratio vs {args.baseline}"]
    body = []
    for r in rows:
        per = r["cpu"] / max(r["received"], 1)
        body.append([
            r["name"],
            f"{r['received']:,}" + ("" if r["received"] == args.messages else f" (sent {args.messages:,})"),
            f"{per * 1e6:.1f}",
            f"{r['received'] / r['wall']:,.0f}",
            f"{r['maxrss_kib'] / 1024:.1f}",
            f"{per / base_per:.2f}x" if base_per else "n/a",
        ])
    print_table(header, body)
    print()
    print("Sender (Python websockets, same process for every receiver), while serving each one:")
    for r in rows:
        if r.get("sender_cpu") is not None and r.get("sender_wall"):
            print(f"  {r['name']}: {r['sender_cpu'] / max(r['received'], 1) * 1e6:.1f} µs CPU/message, "
                  f"{r['received'] / r['sender_wall']:,.0f} messages/s sent")
    return 0


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("run")
    p.add_argument("--out", required=True)
    p.add_argument("--stderr", required=True)
    p.add_argument("--timeout", type=int, default=600)
    p.add_argument("command", nargs=argparse.REMAINDER)
    p = sub.add_parser("record")
    p.add_argument("--name", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--stderr", required=True)
    p.add_argument("--sender-line", default="")
    p.add_argument("--results", required=True)
    p = sub.add_parser("table")
    p.add_argument("--results", required=True)
    p.add_argument("--messages", type=int, required=True)
    p.add_argument("--baseline", required=True)
    args = parser.parse_args()
    sys.exit({"run": run, "record": record, "table": table}[args.what](args))


if __name__ == "__main__":
    main()
