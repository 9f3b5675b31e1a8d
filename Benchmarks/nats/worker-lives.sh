#!/usr/bin/env bash
# CPU and memory per live of one `bcstream worker` following many lives. Not a timed test: a
# measurement to read. Starts its own nats-server -js and `bcstream replay` on free loopback ports, queues LIVES
# lives with `bcstream follow`, waits until the worker follows all of them (its metrics say so), then samples
# the worker's CPU time and resident memory over WINDOW seconds and prints them per live.
#
#   Benchmarks/nats/worker-lives.sh                  # 1,000 lives, 20 s window, debug build
#   LIVES=200 WINDOW=10 BCSTREAM=.build/release/bcstream Benchmarks/nats/worker-lives.sh
#
# Needs nats-server (Debian: apt install nats-server), python3, and a built bcstream (swift build).
set -euo pipefail

LIVES=${LIVES:-1000}
WINDOW=${WINDOW:-20}
INTERVAL=${INTERVAL:-0.5}   # seconds between two messages of one live: LIVES/INTERVAL messages a second in all
cd "$(dirname "$0")/../.."
BCSTREAM=${BCSTREAM:-.build/debug/bcstream}
NATS_SERVER=$(command -v nats-server || echo /usr/sbin/nats-server)
[ -x "$BCSTREAM" ] || { echo "build first: swift build (or set BCSTREAM)" >&2; exit 1; }
[ -x "$NATS_SERVER" ] || { echo "nats-server is missing: apt install nats-server" >&2; exit 1; }
ulimit -n 65536 2>/dev/null || ulimit -n 8192 2>/dev/null || true

work=$(mktemp -d)
pids=()
cleanup() {
    # The worker first, while NATS is still there to take what it holds; then the servers.
    for (( i=${#pids[@]}-1; i>=0; i-- )); do kill "${pids[$i]}" 2>/dev/null || true; wait "${pids[$i]}" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

nats_port=$(free_port)
"$NATS_SERVER" -js -a 127.0.0.1 -p "$nats_port" -sd "$work/store" 2>"$work/nats.log" &
pids+=($!)
until grep -q "Server is ready" "$work/nats.log" 2>/dev/null; do sleep 0.1; done
nats="nats://127.0.0.1:$nats_port"

"$BCSTREAM" replay --interval "$INTERVAL" --loop >"$work/replay.out" 2>"$work/replay.log" &
pids+=($!)
until [ -s "$work/replay.out" ]; do sleep 0.1; done
url=$(head -1 "$work/replay.out")

"$BCSTREAM" worker --nats "$nats" --max-lives "$LIVES" --metrics-port 0 2>"$work/worker.log" &
worker=$!
pids+=("$worker")
until grep -q "metrics on" "$work/worker.log" 2>/dev/null; do sleep 0.1; done
metrics=$(grep -o 'http://[0-9.:]*/metrics' "$work/worker.log" | head -1)

base_rss=$(awk '/VmRSS/ { print $2 }' "/proc/$worker/status")
keys=()
for i in $(seq 1 "$LIVES"); do keys+=(--key "bench$i:k$i"); done
"$BCSTREAM" follow --nats "$nats" "$url" "${keys[@]}" >/dev/null

scrape() { python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())' "$metrics"; }
metric() { scrape | awk -v name="$1" '$1 == name { print $2; exit }'; }
echo "waiting until the worker follows $LIVES lives…" >&2
until [ "$(metric bcstream_lives_active | cut -d. -f1)" = "$LIVES" ]; do sleep 0.5; done

ticks=$(getconf CLK_TCK)
cpu() { awk '{ print $14 + $15 }' "/proc/$worker/stat"; }
published() { scrape | awk '$1 ~ /^bcstream_messages_total/ { sum += $2 } END { print sum + 0 }'; }
cpu0=$(cpu); msgs0=$(published); start=$(date +%s.%N)
sleep "$WINDOW"
cpu1=$(cpu); msgs1=$(published); end=$(date +%s.%N)
rss=$(awk '/VmRSS/ { print $2 }' "/proc/$worker/status")

awk -v lives="$LIVES" -v c0="$cpu0" -v c1="$cpu1" -v t0="$start" -v t1="$end" -v hz="$ticks" \
    -v m0="$msgs0" -v m1="$msgs1" -v rss="$rss" -v base="$base_rss" 'BEGIN {
    seconds = t1 - t0; cpu = (c1 - c0) / hz
    printf "lives followed:        %d\n", lives
    printf "window:                %.1f s\n", seconds
    printf "messages published:    %.0f (%.0f/s)\n", m1 - m0, (m1 - m0) / seconds
    printf "worker CPU:            %.1f%% of one core (%.3f%% per live)\n", 100 * cpu / seconds, 100 * cpu / seconds / lives
    printf "worker resident:       %.1f MiB, %.1f MiB before the lives (%.1f KiB per live)\n", rss / 1024, base / 1024, (rss - base) / lives
}'
