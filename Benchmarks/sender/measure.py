#!/usr/bin/env python3
"""Helpers for run.sh: the corpus, one timed sender, and the table.

  measure.py corpus --payloads DIR --messages N --key KEY --corpus FILE --recording FILE
      Writes the N messages, cycling over the fixtures of DIR as Benchmarks/peers/sender.py sends them (both
      take them from Benchmarks/common.py's fixture_frames: one per *.json file in name order, stripped, the
      kinds that end a live left out), as CORPUS (one JSON a line, for lws_serve) and as RECORDING, the same N
      messages then the t=8, in the format `bcstream listen --record` writes (RecordedFrame.line(): sorted keys,
      slashes not escaped, times with milliseconds). Prints the number of fixtures.

  measure.py run --name NAME --out FILE --log DIR --timeout SECONDS -- SENDER... -- CLIENT...
      Starts SENDER (stdin /dev/null, no terminal) and waits for its port on the first stdout line ("port=N"
      or a ws:// URL). Then, with {port} in CLIENT replaced, runs CLIENT and reads the sender's CPU time (its
      process CPU clock: every thread, ns) just before the client starts and right after it exits: the
      difference is what serving the client cost, start-up and loading left out. Then waits for the sender to
      exit (it is stopped with SIGTERM if it has not within 10 s) and takes its peak RSS from wait4
      (ru_maxrss: VmHWM at exit), and its CPU after the client left (its total then, less the clock's reading). Writes one JSON object to --out; the children's stdout and stderr go to
      DIR/NAME.{sender,client}.{out,err}. Killed on SIGTERM/SIGINT or after --timeout, with its children.

  measure.py table --results FILE --messages N --baseline NAME
      The table, with each sender's CPU per message compared with the baseline's.
"""

import argparse
import datetime
import json
import os
import re
import signal
import subprocess
import sys
import time

# Benchmarks/common.py: the fixtures and the process helpers the benchmarks share (Benchmarks is no package).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import (cpu_seconds, die_with_parent, first_line, fixture_frames, kill_children,  # noqa: E402
                    print_table, raise_on_alarm, reap, stop_on_signals, wait_exit)


def recorded_line(key, text, when):
    """One line as RecordedFrame.line() writes a text frame: JSONEncoder, .sortedKeys, .withoutEscapingSlashes."""
    stamp = when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"
    return json.dumps({"key": key, "text": text, "time": stamp}, ensure_ascii=False, separators=(",", ":"),
                      sort_keys=True)


def corpus(args):
    frames = fixture_frames(args.payloads, "measure.py")
    start = datetime.datetime(2026, 11, 22, 2, 30, 11, tzinfo=datetime.timezone.utc)
    step = datetime.timedelta(milliseconds=1)  # a busy live's pace; --speed max ignores it
    with open(args.corpus, "w", encoding="utf-8", newline="\n") as plain, \
            open(args.recording, "w", encoding="utf-8", newline="\n") as recording:
        for i in range(args.messages):
            json_text = frames[i % len(frames)]
            plain.write(json_text + "\n")
            recording.write(recorded_line(args.key, f"MSG\t{args.key}\t{json_text}", start + i * step) + "\n")
        recording.write(recorded_line(args.key, f'MSG\t{args.key}\t{{"t":8}}', start + args.messages * step)
                        + "\n")
    print(len(frames))
    return 0


def vm_hwm_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            found = re.search(r"^VmHWM:\s+(\d+) kB", status.read(), re.M)
        return int(found.group(1)) if found else None
    except OSError:
        return None


def run(args):
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if "--" not in command:
        sys.exit("measure.py run: want SENDER... -- CLIENT...")
    split = command.index("--")
    sender_command, client_command = command[:split], command[split + 1:]
    base = os.path.join(args.log, re.sub(r"[^A-Za-z0-9]", "_", args.name))
    children = []

    stop_on_signals(children)
    raise_on_alarm(args.timeout)
    result = {"name": args.name}
    try:
        with open(base + ".sender.out", "wb") as out, open(base + ".sender.err", "wb") as err:
            sender = subprocess.Popen(sender_command, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                      preexec_fn=die_with_parent)
        children.append(sender)
        first = first_line(base + ".sender.out", sender)
        if first is None:
            sys.exit(f"measure.py: {args.name}: the sender exited before it listened (status {sender.returncode})")
        found = re.match(r"port=(\d+)$|wss?://[^/]*:(\d+)/", first)
        if not found:
            sys.exit(f"measure.py: {args.name}: no port in its first line: {first!r}")
        port = found.group(1) or found.group(2)

        client_command = [part.replace("{port}", port) for part in client_command]
        with open(base + ".client.out", "wb") as out, open(base + ".client.err", "wb") as err:
            before = cpu_seconds(sender.pid)
            result["hwm_before_kib"] = vm_hwm_kib(sender.pid)
            started = time.monotonic()
            client = subprocess.Popen(client_command, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                      preexec_fn=die_with_parent)
        children.append(client)
        status, _ = wait_exit(client.pid)
        wall = time.monotonic() - started
        after = cpu_seconds(sender.pid)  # a zombie's clock still reads; it is not reaped before this
        client.returncode = os.waitstatus_to_exitcode(status)

        # The sender ends by itself once its client is done (lws_serve at once, replay without a terminal half a
        # second later); one that has not within 10 s is stopped.
        stopped = False
        ended = reap(sender, 10)
        if ended is None:
            stopped = True
            sender.terminate()
            ended = reap(sender, 5)
            if ended is None:
                sender.kill()
                ended = reap(sender, 5)
        sender_status, usage = ended
    except TimeoutError:
        kill_children(children)
        sys.exit(f"measure.py: {args.name}: killed after {args.timeout} s")
    signal.alarm(0)

    with open(base + ".client.err", encoding="utf-8", errors="replace") as err:
        received = re.findall(r"^messages (\d+)", err.read(), re.M)
    result.update({
        "received": int(received[-1]) if received else 0,
        "client_status": client.returncode,
        "sender_status": sender_status,
        "sender_stopped": stopped,
        "startup_cpu": before,
        "cpu": after - before,
        "wall": wall,
        "maxrss_kib": usage.ru_maxrss,  # KiB on Linux
        "after_cpu": max(0.0, usage.ru_utime + usage.ru_stime - after),  # rusage has µs, the clock ns
    })
    with open(args.out, "w") as out:
        json.dump(result, out)
    return 0


def table(args):
    rows = [json.loads(line) for line in open(args.results)]
    base = next((r for r in rows if r["name"] == args.baseline), None)
    base_per = base["cpu"] / max(base["received"], 1) if base else None
    header = ["sender", "CPU µs/message", "messages/s", "peak RSS MiB", f"CPU vs {args.baseline}"]
    body = []
    for r in rows:
        per = r["cpu"] / max(r["received"], 1)
        body.append([
            r["name"] + ("" if r["received"] == args.messages else f" (client got {r['received']:,})"),
            f"{per * 1e6:.2f}",
            f"{r['received'] / r['wall']:,.0f}",
            f"{r['maxrss_kib'] / 1024:.1f}",
            f"{per / base_per:.2f}x" if base_per else "n/a",
        ])
    print_table(header, body)
    print()
    print("Left out of the CPU per message: before the client connected, and after it exited until the sender did:")
    for r in rows:
        hwm = r.get("hwm_before_kib")
        print(f"  {r['name']}: {r['startup_cpu']:.3f} s CPU starting up and loading"
              + (f" (peak RSS {hwm / 1024:.1f} MiB by then)" if hwm is not None else "")
              + f", {r['after_cpu']:.3f} s after"
              + (" (stopped with SIGTERM)" if r["sender_stopped"] else ""))
    return 0


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("corpus")
    p.add_argument("--payloads", required=True)
    p.add_argument("--messages", type=int, required=True)
    p.add_argument("--key", required=True)
    p.add_argument("--corpus", required=True)
    p.add_argument("--recording", required=True)
    p = sub.add_parser("run")
    p.add_argument("--name", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--timeout", type=int, default=600)
    p.add_argument("command", nargs=argparse.REMAINDER)
    p = sub.add_parser("table")
    p.add_argument("--results", required=True)
    p.add_argument("--messages", type=int, required=True)
    p.add_argument("--baseline", required=True)
    args = parser.parse_args()
    sys.exit({"corpus": corpus, "run": run, "table": table}[args.what](args))


if __name__ == "__main__":
    main()
