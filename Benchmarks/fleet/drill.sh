#!/usr/bin/env bash
# The fleet drill: does the fleet follow every live to its end, store nothing twice and lose only what a
# live sends while no worker holds it, when a worker is SIGKILLed and a NATS node restarts mid-way?
#
# It starts, on loopback, in a temporary folder, on free ports (every process is stopped on exit, Ctrl-C too):
#   - a three-node `nats-server -js` cluster (streams with 3 replicas);
#   - REPLAYS `bcstream replay --broadcast` processes serving LIVES lives between them, a key per live: each live
#     plays, from its first subscription, MESSAGES comments PACE seconds apart (comment ids 1…MESSAGES, so that a
#     comment is told apart per live and sequence), then the stream's end (t=123). --broadcast keeps a live
#     playing on its clock while nobody subscribes, as a real service does: what it sends meanwhile is lost;
#   - a comments API (api_peer.py): each live's comments sent so far, read from the replays' logs;
#   - WORKERS `bcstream worker` processes (--claim-timeout CLAIM_TIMEOUT, each allowed enough lives that the
#     others can take a dead one's over, --api-base the comments API);
# queues every live with `bcstream follow` (with its live id, so that a take-over refills the comments it missed
# from the API), waits until every live is followed, then, half-way through the lives, SIGKILLs the worker
# holding the most lives and, a few seconds later, restarts the NATS node that leads stream BCSTREAM. Once every
# live has ended it reads the streams back with a NATS client (drill_report.py, nats-py) and prints, from the
# stream alone: lives followed to their end, messages stored against sent, messages lost (those sent while no
# worker held the live, with the window's length) and comments refilled, messages stored twice, time from the
# kill to every orphaned live re-claimed (its `resumed` status); and each worker's CPU and resident memory per
# live (from /proc). It exits 1 when a live is not followed to its end, a message is stored twice, a message is lost
# outside a take-over window, or a re-claim takes longer than CLAIM_TIMEOUT + 10 s.
#
#   Benchmarks/fleet/drill.sh                                   # 20,000 lives, 4 workers, release build
#   LIVES=300 WORKERS=3 REPLAYS=1 MESSAGES=12 PACE=4 CLAIM_TIMEOUT=8 BUILD=debug Benchmarks/fleet/drill.sh
#
# Environment (defaults): LIVES (20000), WORKERS (4, at least 2), REPLAYS (2: a process holds at most some
# 19,000 connections under a 20,000 open-file limit), MESSAGES comments per live (10), PACE seconds between two
# comments of a live (30: 667 messages a second over 20,000 lives), CLAIM_TIMEOUT seconds (30, the worker's
# default), BUILD release|debug (release: built into .build-release; BCSTREAM_BIN=path uses that binary).
# Needs nats-server (apt install nats-server) and python3 with nats-py (Tests/Peers/requirements.txt).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=../common.sh
source "$here/../common.sh"

LIVES=${LIVES:-20000}
WORKERS=${WORKERS:-4}
REPLAYS=${REPLAYS:-2}
MESSAGES=${MESSAGES:-10}
PACE=${PACE:-30}
CLAIM_TIMEOUT=${CLAIM_TIMEOUT:-30}
BUILD=${BUILD:-release}
for name in LIVES WORKERS REPLAYS MESSAGES PACE CLAIM_TIMEOUT; do
    [[ ${!name} =~ ^[1-9][0-9]*$ ]] || fail "$name wants a positive whole number, not ${!name}"
done
((WORKERS >= 2)) || fail "WORKERS must be at least 2: one is killed, another takes its lives over"
((LIVES >= REPLAYS)) || fail "LIVES must be at least REPLAYS"
python=${PYTHON:-python3}
"$python" -c 'import nats' 2>/dev/null || fail "$python has no nats module (pip install -r Tests/Peers/requirements.txt)"
nats_server=$(command -v nats-server || echo /usr/sbin/nats-server)
[[ -x $nats_server ]] || fail "nats-server is missing: apt install nats-server"

ulimit -n "$(ulimit -Hn)"
make_work fleet-drill
case $BUILD in
    release) choose_bcstream ;;
    debug)
        if [[ -n ${BCSTREAM_BIN:-} ]]; then
            choose_bcstream
        else
            echo "building bcstream (debug)..." >&2
            (cd "$root" && swift build --product bcstream >&2) || fail "swift build failed"
            bcstream=$(cd "$root" && swift build --show-bin-path)/bcstream
            note_debug_build "$bcstream" BUILD
        fi
        ;;
    *) fail "BUILD is release or debug, not $BUILD" ;;
esac

now() { date +%s.%N; }
free_port() { "$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
hwm_kib() { awk '/^VmHWM/ {print $2}' "/proc/$1/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
report() { "$python" "$here/drill_report.py" "$@"; }

# --- the cluster ----------------------------------------------------------------------------------------------
client_ports=() route_ports=() node_pids=()
for n in 0 1 2; do client_ports+=("$(free_port)"); route_ports+=("$(free_port)"); done
start_node() {
    local n=$1 routes=() m
    for m in 0 1 2; do ((m == n)) || routes+=("nats://127.0.0.1:${route_ports[$m]}"); done
    mkdir -p "$work/node$n"
    "$nats_server" -js -a 127.0.0.1 -p "${client_ports[$n]}" -n "n$n" -sd "$work/node$n" \
        --cluster_name drill --cluster "nats://127.0.0.1:${route_ports[$n]}" \
        --routes "$(IFS=,; echo "${routes[*]}")" >>"$work/node$n.log" 2>&1 &
    node_pids[n]=$!
    pids+=("$!")
}
wait_node() {
    for _ in $(seq 300); do
        (($(grep -c "Server is ready" "$work/node$1.log" 2>/dev/null || true) >= $2)) && return
        sleep 0.1
    done
    fail "NATS node $1 did not start: $(tail -5 "$work/node$1.log")"
}
for n in 0 1 2; do start_node "$n"; done
for n in 0 1 2; do wait_node "$n" 1; done
servers=$(printf 'nats://127.0.0.1:%s,' "${client_ports[@]}")
servers=${servers%,}
report wait-cluster "$servers" || fail "the cluster elected no JetStream leader"

# --- the lives --------------------------------------------------------------------------------------------------
"$python" - "$work/live.ndjson" "$MESSAGES" "$PACE" <<'PY'
import datetime, json, sys
path, messages, pace = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
start = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
def at(seconds):
    return (start + datetime.timedelta(seconds=seconds)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
with open(path, "w") as out:
    for i in range(1, messages + 1):
        comment = {"t": 1, "u": str(100000000 + i), "ac": f"viewer{i}", "cm": f"comment {i}", "lci": str(i),
                   "created_at": 1767225600 + i}
        print(json.dumps({"time": at((i - 1) * pace), "key": "drill", "text": "MSG\tdrill\t" + json.dumps(comment)}), file=out)
    print(json.dumps({"time": at(messages * pace), "key": "drill", "text": "MSG\tdrill\t" + json.dumps({"t": 123})}), file=out)
PY
replay_urls=()
per_replay=$(((LIVES + REPLAYS - 1) / REPLAYS))
for ((r = 0; r < REPLAYS; r++)); do
    "$bcstream" replay --broadcast --keep-open --max-channels $((per_replay + 100)) "$work/live.ndjson" \
        </dev/null >"$work/replay$r.url" 2>"$work/replay$r.log" &
    pids+=("$!")
    for _ in $(seq 100); do [[ -s $work/replay$r.url ]] && break; sleep 0.1; done
    url=$(head -n 1 "$work/replay$r.url")
    [[ $url == ws://* ]] || fail "replay $r did not start: $(head -c 500 "$work/replay$r.log")"
    replay_urls+=("$url")
done

# The comments API: each live's comments sent so far, read from the replays' logs.
replay_logs=()
for ((r = 0; r < REPLAYS; r++)); do replay_logs+=("$work/replay$r.log"); done
"$python" "$here/api_peer.py" "$work/api.port" "$MESSAGES" "${replay_logs[@]}" 2>"$work/api.log" &
pids+=("$!")
for _ in $(seq 100); do [[ -s $work/api.port ]] && break; sleep 0.1; done
[[ -s $work/api.port ]] || fail "the comments API did not start: $(tail -5 "$work/api.log")"
api=http://127.0.0.1:$(cat "$work/api.port")

# --- the workers ------------------------------------------------------------------------------------------------
# Each may hold its share of a dead worker's lives too, and a margin.
max_lives=$(((LIVES + WORKERS - 2) / (WORKERS - 1) + LIVES / 20 + 10))
worker_pids=() metrics_urls=() base_rss=()
for ((w = 0; w < WORKERS; w++)); do
    "$bcstream" worker --nats "$servers" --replicas 3 --max-lives "$max_lives" --claim-timeout "$CLAIM_TIMEOUT" \
        --api-base "$api" --metrics-port 0 2>"$work/worker$w.log" &
    worker_pids+=("$!")
    pids+=("$!")
done
for ((w = 0; w < WORKERS; w++)); do
    for _ in $(seq 300); do grep -q "waiting for lives" "$work/worker$w.log" 2>/dev/null && break; sleep 0.1; done
    grep -q "waiting for lives" "$work/worker$w.log" || fail "worker $w did not start: $(tail -5 "$work/worker$w.log")"
    metrics_urls+=("$(grep -o 'http://[0-9.:]*/metrics' "$work/worker$w.log" | head -n 1)")
    base_rss+=("$(rss_kib "${worker_pids[$w]}")")
done
scrape() { "$python" -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' "$1" 2>/dev/null || true; }
active() { scrape "$1" | awk '$1 == "bcstream_lives_active" { printf "%d", $2; found = 1 } END { if (!found) print 0 }'; }
total_active() {
    local sum=0 w
    for ((w = 0; w < WORKERS; w++)); do
        running "${worker_pids[$w]}" && sum=$((sum + $(active "${metrics_urls[$w]}")))
    done
    echo "$sum"
}

# --- queue every live -------------------------------------------------------------------------------------------
echo "queueing $LIVES lives on $REPLAYS replay process(es), $WORKERS workers (at most $max_lives lives each)…" >&2
queued_at=$(now)
followers=()
for ((r = 0; r < REPLAYS; r++)); do
    first=$((r * per_replay + 1))
    last=$(((r + 1) * per_replay < LIVES ? (r + 1) * per_replay : LIVES))
    # In parts of 2,000, several at once: `follow` waits for each ack in turn.
    for ((from = first; from <= last; from += 2000)); do
        to=$((from + 1999 < last ? from + 1999 : last))
        keys=()
        for ((i = from; i <= to; i++)); do keys+=(--key "drill$r:$i" --live "drill$r-$i"); done
        "$bcstream" follow --nats "$servers" --replicas 3 "${replay_urls[$r]}" "${keys[@]}" >/dev/null \
            2>>"$work/follow.log" &
        followers+=("$!")
    done
done
for pid in "${followers[@]}"; do wait "$pid" || fail "bcstream follow failed: $(tail -5 "$work/follow.log")"; done

live_seconds=$((MESSAGES * PACE))
deadline=$(("${queued_at%.*}" + 120 + LIVES / 50))
while (($(total_active) < LIVES)); do
    ((${EPOCHSECONDS} < deadline)) || fail "after $((deadline - ${queued_at%.*})) s the workers follow $(total_active) of $LIVES lives"
    sleep 1
done
followed_at=$(now)
echo "every live followed after $(awk -v a="$queued_at" -v b="$followed_at" 'BEGIN { printf "%.1f", b - a }') s" >&2
cpu_start=() rss_start=()
for ((w = 0; w < WORKERS; w++)); do
    cpu_start+=("$(cpu_ticks "${worker_pids[$w]}")")
    rss_start+=("$(rss_kib "${worker_pids[$w]}")")
done

# --- the kill and the node restart, half-way ---------------------------------------------------------------------
kill_at=$(awk -v q="$queued_at" -v f="$followed_at" -v d="$live_seconds" -v p="$PACE" \
    'BEGIN { k = q + d / 2; if (k < f + p) k = f + p; printf "%.3f", k }')
left=$(awk -v f="$followed_at" -v k="$kill_at" -v d="$live_seconds" 'BEGIN { printf "%d", f + d - k }')
if ((left < CLAIM_TIMEOUT + 10 + PACE)); then
    echo "$me: warning: the last lives have $left s left at the kill, less than CLAIM_TIMEOUT + 10 s + PACE:" \
        "some may end before they are re-claimed (raise MESSAGES or PACE)" >&2
fi
sleep "$(awk -v k="$kill_at" -v n="$(now)" 'BEGIN { s = k - n; printf "%.3f", (s > 0 ? s : 0) }')"
cpu_kill=() rss_kill=() held=()
victim=0
for ((w = 0; w < WORKERS; w++)); do
    cpu_kill+=("$(cpu_ticks "${worker_pids[$w]}")")
    rss_kill+=("$(rss_kib "${worker_pids[$w]}")")
    held+=("$(active "${metrics_urls[$w]}")")
    if ((held[w] > held[victim])); then victim=$w; fi
done
kill -KILL "${worker_pids[$victim]}"
killed_at=$(now)
echo "killed worker $victim (pid ${worker_pids[$victim]}, ${held[$victim]} lives)" >&2
sleep "$(((CLAIM_TIMEOUT / 3) < 5 ? CLAIM_TIMEOUT / 3 : 5))"
leader=$(report leader "$servers" BCSTREAM) || fail "no leader for stream BCSTREAM"
node=${leader#n}
kill -TERM "${node_pids[$node]}"
for _ in $(seq 100); do running "${node_pids[$node]}" || break; sleep 0.1; done
kill -KILL "${node_pids[$node]}" 2>/dev/null || true
wait "${node_pids[$node]}" 2>/dev/null || true
node_down_at=$(now)
start_node "$node"
wait_node "$node" 2
node_up_at=$(now)
echo "restarted NATS node n$node (the leader of BCSTREAM): down $(awk -v a="$node_down_at" -v b="$node_up_at" 'BEGIN { printf "%.1f", b - a }') s" >&2

# --- until every live ended ---------------------------------------------------------------------------------------
end_by=$(awk -v f="$followed_at" -v d="$live_seconds" -v c="$CLAIM_TIMEOUT" 'BEGIN { printf "%d", f + d + c + 90 }')
sleep "$(awk -v f="$followed_at" -v d="$live_seconds" -v n="$(now)" 'BEGIN { s = f + d - n; printf "%.3f", (s > 0 ? s : 0) }')"
while (($(total_active) > 0 && EPOCHSECONDS < end_by)); do sleep 2; done
finished_at=$(now)
facts=$work/facts.json
{
    echo "{\"lives\": $LIVES, \"messages\": $MESSAGES, \"pace\": $PACE, \"claim_timeout\": $CLAIM_TIMEOUT,"
    echo " \"replays\": $REPLAYS, \"build\": \"$BUILD\", \"max_lives\": $max_lives, \"hz\": $(getconf CLK_TCK),"
    echo " \"queued_at\": $queued_at, \"followed_at\": $followed_at, \"killed_at\": $killed_at,"
    echo " \"node\": \"n$node\", \"node_down_at\": $node_down_at, \"node_up_at\": $node_up_at, \"finished_at\": $finished_at,"
    echo " \"victim\": ${worker_pids[$victim]}, \"workers\": ["
    for ((w = 0; w < WORKERS; w++)); do
        cpu_end=null rss_end=null hwm=null
        if running "${worker_pids[$w]}"; then
            cpu_end=$(cpu_ticks "${worker_pids[$w]}"); rss_end=$(rss_kib "${worker_pids[$w]}"); hwm=$(hwm_kib "${worker_pids[$w]}")
        fi
        ((w == 0)) || echo ","
        echo "  {\"pid\": ${worker_pids[$w]}, \"rss_base\": ${base_rss[$w]}, \"cpu_start\": ${cpu_start[$w]},"
        echo "   \"rss_start\": ${rss_start[$w]}, \"cpu_kill\": ${cpu_kill[$w]}, \"rss_kill\": ${rss_kill[$w]},"
        echo "   \"cpu_end\": $cpu_end, \"rss_end\": $rss_end, \"hwm\": $hwm}"
    done
    echo "]}"
} >"$facts"
status=0
report table "$servers" "$facts" || status=$?
report_machine "build:   $BUILD ($bcstream)" "date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
exit $status
