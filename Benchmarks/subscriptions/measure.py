"""Many channels in one `bcstream listen`: start-up time, idle CPU and memory per subscription.

    python3 measure.py --bcstream BIN --url ws://127.0.0.1:PORT/ --counts 1000,2500,5000,10000 [--idle 5]

For each count N it writes N keys to a file, starts `bcstream listen URL --keys-file FILE`, and reads its stderr:
the start-up is the time from the start to the N-th "subscribed to channel" line. Then it leaves the process idle
(the replay server sends nothing more) for --idle seconds and reads its CPU time and resident memory from /proc,
then stops it with SIGINT. One row per N; the last column shows whether start-up grows linearly (the time per
subscription stays flat) or not.
"""
import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def resident_mib(pid):
    with open(f"/proc/{pid}/status") as file:
        for line in file:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def run(arguments, count, extra):
    with tempfile.NamedTemporaryFile("w", suffix=".keys", delete=False) as keys:
        keys.write("".join(f"bench:{index}\n" for index in range(count)))
    command = [arguments.bcstream, "listen", arguments.url, "--keys-file", keys.name, "--format", "ndjson"] + extra
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    subscribed = 0
    try:
        deadline = started + arguments.timeout
        for line in process.stderr:
            if line.startswith("subscribed to channel"):
                subscribed += 1
                if subscribed == count:
                    break
            if time.monotonic() > deadline:
                break
        startup = time.monotonic() - started
        if subscribed < count:
            return None, f"only {subscribed} of {count} subscribed within {arguments.timeout} s"
        startup_cpu = cpu_seconds(process.pid)
        idle_from = time.monotonic()
        # Keep reading stderr (the status line) so the process never blocks on a full pipe.
        os.set_blocking(process.stderr.fileno(), False)
        while time.monotonic() - idle_from < arguments.idle:
            try:
                process.stderr.read()
            except (BlockingIOError, TypeError):
                pass
            time.sleep(0.1)
        idle_cpu = cpu_seconds(process.pid) - startup_cpu
        idle_elapsed = time.monotonic() - idle_from
        rss = resident_mib(process.pid)
        return {
            "count": count,
            "startup": startup,
            "startup_cpu": startup_cpu,
            "idle_percent": 100 * idle_cpu / idle_elapsed,
            "rss": rss,
        }, None
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        os.unlink(keys.name)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bcstream", required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--counts", default="1000,2500,5000,10000")
    parser.add_argument("--idle", type=float, default=5.0)
    parser.add_argument("--timeout", type=float, default=120.0)
    arguments = parser.parse_args()
    counts = [int(count) for count in arguments.counts.split(",")]

    rows = []
    for count in counts:
        row, problem = run(arguments, count, [])
        if problem:
            print(f"measure.py: {count} channels: {problem}", file=sys.stderr)
            sys.exit(1)
        row["label"] = f"{count:,}"
        rows.append(row)
    # The largest count once more without compression: permessage-deflate's zlib state is most of the memory.
    row, problem = run(arguments, counts[-1], ["--no-compression"])
    if problem:
        print(f"measure.py: {counts[-1]} channels without compression: {problem}", file=sys.stderr)
        sys.exit(1)
    row["label"] = f"{counts[-1]:,}, --no-compression"
    rows.append(row)

    base = rows[0]["rss"] - rows[0]["count"] * (rows[1]["rss"] - rows[0]["rss"]) / max(1, rows[1]["count"] - rows[0]["count"]) if len(rows) > 2 else 0
    print("| channels | start-up s | start-up µs per channel | start-up CPU s | idle CPU % | resident MiB | KiB per channel |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        per_channel_kib = (row["rss"] - base) * 1024 / row["count"]
        print(f"| {row['label']} | {row['startup']:.2f} | {1e6 * row['startup'] / row['count']:.0f} | "
              f"{row['startup_cpu']:.2f} | {row['idle_percent']:.1f} | {row['rss']:.1f} | {per_channel_kib:.1f} |")
    first, last = rows[0], rows[len(counts) - 1]
    growth = (last["startup"] / last["count"]) / (first["startup"] / first["count"])
    print(f"\nstart-up per channel at {last['count']:,} vs {first['count']:,}: {growth:.2f}x "
          f"({'linear' if growth < 2 else 'worse than linear'})")


if __name__ == "__main__":
    main()
