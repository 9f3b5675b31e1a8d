#!/usr/bin/env bash
# The replay subscribers benchmark: one `bcstream replay` process, COUNT subscribers on COUNT connections, each
# with its own key (so COUNT channels, each playing its own schedule). Prints the connections, the time until each
# got its first message (max and p50, from its connection opening), the replay's CPU over 10 s of idle after
# (every connection held, nothing left to send), its resident memory and KiB per connection.
#
#   Benchmarks/replay/subscribers.sh [COUNT]      (default 19000; CI: 500)
#
# The subscribers run in Python asyncio (`websockets`), in two processes past 9,000 (each needs a descriptor per
# connection). BCSTREAM_BIN=path uses that bcstream instead of building one; PYTHON=path picks the Python.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=../common.sh
source "$here/../common.sh"
count=${1:-19000}
[[ $count =~ ^[1-9][0-9]*$ ]] || fail "COUNT wants a positive number, not $count"
python=${PYTHON:-python3}
command -v "$python" >/dev/null || fail "no $python (PYTHON=path picks another)"
"$python" -c 'import websockets' 2>/dev/null || fail "$python has no websockets module (pip install websockets)"

# A connection is a descriptor on both sides.
ulimit -n "$(ulimit -Hn)"
make_work replay-subscribers
choose_bcstream

# One fixture: each channel sends it at once and is then done, so the 10 s after are idle.
fixture=$root/Tests/Payloads/1-comment-emoji-surrogates.json
channel_option=()
help=$("$bcstream" replay --help 2>&1 || true)
if [[ $help == *--max-channels* ]]; then channel_option=(--max-channels $((count + 100))); fi
"$bcstream" replay --keep-open "${channel_option[@]}" "$fixture" </dev/null >"$work/url" 2>"$work/replay.log" &
replay=$!
pids+=("$replay")
for _ in $(seq 100); do [[ -s $work/url ]] && break; sleep 0.1; done
url=$(head -n 1 "$work/url")
[[ $url == ws://* ]] || fail "replay did not start: $(head -c 500 "$work/replay.log")"

rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss_before=$(rss_kib "$replay")

# Past 9,000 the subscribers are split over two processes.
parts=1
((count <= 9000)) || parts=2
clients=()
holds=()
first=0
for ((p = 0; p < parts; p++)); do
    n=$((count / parts + (p < count % parts ? 1 : 0)))
    mkfifo "$work/hold$p"
    "$python" "$here/subscribers.py" "$url" "$n" "$first" "$work/result$p" <"$work/hold$p" &
    clients+=("$!")
    pids+=("$!")
    # Held open until the script ends: the subscribers keep their connections until their stdin closes.
    exec {fd}>"$work/hold$p"
    holds+=("$fd")
    first=$((first + n))
done
for ((p = 0; p < parts; p++)); do
    until [[ -s $work/result$p ]]; do
        running "${clients[$p]}" || fail "subscriber process $p ended early"
        sleep 0.2
    done
done

ticks_before=$(cpu_ticks "$replay")
sleep 10
ticks_after=$(cpu_ticks "$replay")
rss_after=$(rss_kib "$replay")
connected=$(ls /proc/"$replay"/fd | wc -l)

status=0
"$python" - "$work" "$parts" "$count" "$(( ticks_after - ticks_before ))" "$(getconf CLK_TCK)" \
    "$rss_before" "$rss_after" "$connected" <<'PY' || status=$?
import json, statistics, sys
work, parts, count, ticks, hz, rss_before, rss_after, fds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
    int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7]), int(sys.argv[8])
results = [json.load(open(f"{work}/result{p}")) for p in range(parts)]
delays = sorted(d for r in results for d in r["delays"])
got = len(delays)
failures = sum(r["failures"] for r in results)
print(f"subscribers:    {count} (each its own key), {got} got their first message, {failures} failed"
      + (f" ({results[0]['first_failure'] or results[-1]['first_failure']})" if failures else ""))
print(f"replay fds:     {fds} open")
if delays:
    print(f"first message:  max {delays[-1]:.2f} s, p50 {statistics.median(delays):.3f} s from connect; "
          f"all within {max(r['until_all'] for r in results):.1f} s of the start")
print(f"idle CPU:       {100 * ticks / hz / 10:.1f}% of a core over 10 s")
print(f"memory:         {rss_after / 1024:.0f} MiB resident ({rss_before / 1024:.0f} MiB before), "
      f"{(rss_after - rss_before) / max(1, got):.1f} KiB per connection")
sys.exit(0 if got == count else 1)
PY

report_machine "lws:     $(lws_version)"
exit $status
