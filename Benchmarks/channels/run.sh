#!/usr/bin/env bash
# The channels benchmark: one `bcstream listen --keys-file` following N busy channels at once, fed by
# `bcstream replay --speed max` on loopback, the total number of messages fixed so that only the spread over
# channels changes. One table of wall rate, the listener's CPU per message and CPU use (above 100% = more than one
# core), the replay server's CPU per message and the listener's peak memory. See Benchmarks/channels/README.md.
#
#   Benchmarks/channels/run.sh [--channels 1,10,100] [--messages 1000000] [--ping-interval S]
#                              [--compression off,on] [--small]
#
# --compression on is listen's default (it offers permessage-deflate, replay accepts it); off is --no-compression.
# PING every 2 s without compression (the listener at full load must keep its keepalive; a run lasts about two
# intervals), every 30 s (listen's default) with it, where replay's deflate sets the pace and its ACKs queue behind
# its backlog; --ping-interval S sets both. Below about 1 s an ACK waits behind more than two intervals of queued
# messages at 100 channels (replay outruns the listener), and the app's rule rightly calls the link dead.
# BCSTREAM_BIN=path uses that bcstream instead of building one; PYTHON=path picks the Python (default python3).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=../common.sh
source "$here/../common.sh"
channels=1,10,100
messages=1000000
ping_off=2
ping_on=30
modes=off,on
python=${PYTHON:-python3}

usage() { sed -n '2,12s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

while (($#)); do
    case $1 in
        --channels) [[ ${2:-} =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || fail "--channels wants numbers, like 1,10,100"
            channels=$2; shift 2 ;;
        --messages) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || fail "--messages wants a positive number"; messages=$2; shift 2 ;;
        --ping-interval) [[ ${2:-} =~ ^[0-9]*\.?[0-9]+$ ]] || fail "--ping-interval wants seconds"
            ping_off=$2; ping_on=$2; shift 2 ;;
        --compression) [[ ${2:-} =~ ^(on|off)(,(on|off))?$ ]] || fail "--compression wants off, on or off,on"
            modes=$2; shift 2 ;;
        --small) channels=1,10; messages=5000; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; fail "unknown argument: $1" ;;
    esac
done
IFS=, read -r -a counts <<<"$channels"
IFS=, read -r -a modes <<<"$modes"

command -v "$python" >/dev/null || fail "no $python (PYTHON=path picks another)"
# Each channel is a socket on both sides: raise the soft limit of open files to the hard one.
ulimit -n "$(ulimit -Hn)"

# measure.py stops replay and listen when it is stopped, and they get SIGKILL if it dies first.
make_work channels

choose_bcstream

# A run that ran out of time is killed; at 1,000 messages/s and more, none should.
timeout=$((120 + messages / 1000))
short=()
keepalive_failed=()

for mode in "${modes[@]}"; do for n in "${counts[@]}"; do
    compression=()
    ping_interval=$ping_on
    [[ $mode == on ]] || { compression=(--no-compression); ping_interval=$ping_off; }
    per=$((messages / n))
    ((per > 0)) || fail "$messages messages over $n channels is none per channel"
    # The recording each channel plays whole: the sender benchmark's, `per` messages then {"t":8}.
    fixtures=$("$python" "$root/Benchmarks/sender/measure.py" corpus --payloads "$root/Tests/Payloads" \
        --messages "$per" --key bench --corpus /dev/null --recording "$work/recording.ndjson") \
        || fail "cannot write the recording"
    echo "running $n channel(s) x $per messages, compression $mode..." >&2
    "$python" "$here/measure.py" run --bcstream "$bcstream" --recording "$work/recording.ndjson" --channels "$n" \
        --per "$per" --log "$work" --out "$work/result.json" --ping-interval "$ping_interval" \
        --timeout "$timeout" ${compression[@]+"${compression[@]}"} &
    pid=$!
    pids+=("$pid")
    status=0
    wait "$pid" || status=$?
    pids=()  # it has been waited for: its number may be reused, never kill it now
    rm -f "$work/recording.ndjson"
    if ((status != 0)) || [[ ! -s $work/result.json ]]; then
        tail -n 5 "$work/channels-$n.replay.err" "$work/channels-$n.listen.err" >&2 2>/dev/null || true
        short+=("$n channels, compression $mode: the run failed (measure.py exit status $status)")
        continue
    fi
    # Every message of every channel, every channel ended, one connection each, nothing on stderr about a drop,
    # a timeout or a dead link, and both ends exited 0.
    problems=$("$python" - "$work/result.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
n, want = r["channels"], r["messages"]
out = []
if r["received"] != want:
    out.append(f"received {r['received']} of {want} messages")
if r["ended"] != n:
    out.append(f"{r['ended']} of {n} channels ended")
if r["connected"] != n:
    out.append(f"keepalive: {r['connected']} connections for {n} channels")
for line in r["keepalive_trouble"]:
    out.append(f"keepalive: {line}")
if r["listener_status"] != 0:
    out.append(f"listen exited with status {r['listener_status']}")
if r["replay_status"] != 0 or r["replay_stopped"]:
    out.append(f"replay exited with status {r['replay_status']}" + (" (stopped)" if r["replay_stopped"] else ""))
print("\n".join(out))
EOF
    )
    if [[ -n $problems ]]; then
        echo "run.sh: $n channels, compression $mode:" >&2
        echo "  ${problems//$'\n'/$'\n'  }" >&2
        tail -n 5 "$work/channels-$n.listen.err" >&2
        while IFS= read -r line; do short+=("$n channels, compression $mode: $line"); done <<<"$problems"
        if grep -q '^keepalive' <<<"$problems"; then
            keepalive_failed+=("$n channels, compression $mode")
        fi
    fi
    cat "$work/result.json" >>"$work/results.jsonl"
    echo >>"$work/results.jsonl"
done; done

echo
echo "channels benchmark: $messages messages in all (fixtures of Tests/Payloads, $fixtures files cycled)," \
    "spread over N channels, each playing its share then {\"t\":8}; one bcstream listen --format ndjson" \
    "(stdout /dev/null; PING every $ping_off s without compression, $ping_on s with it) against bcstream replay" \
    "--speed max --keep-open over" \
    "loopback"
for mode in "${modes[@]}"; do
    [[ -s $work/results.jsonl ]] || break
    echo
    if [[ $mode == on ]]; then
        echo "compression on (listen's default: permessage-deflate offered, replay accepts it):"
    else
        echo "compression off (listen --no-compression):"
    fi
    echo
    "$python" "$here/measure.py" table --results "$work/results.jsonl" --compression "$mode"
done
echo
if ((${#keepalive_failed[@]} == 0)); then
    # A PING goes out every interval and the link is declared dead when the next one is due without an ACK: a
    # run shorter than two intervals never tested it.
    rounds=$("$python" -c 'import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
said = []
for on in (False, True):
    mine = [r for r in rows if r["compression"] == on]
    if not mine:
        continue
    n = int(min(r["wall"] / r["ping_interval"] for r in mine))
    mode, interval = ("on" if on else "off"), mine[0]["ping_interval"]
    said.append(f"compression {mode}: PING every {interval:g} s, {n} round(s) in the shortest run"
                + ("" if n >= 2 else ", too short to test the keepalive"))
print("; ".join(said))' "$work/results.jsonl")
    echo "keepalive: no reconnects (one connection per channel, no timeout or dead-link line on stderr; $rounds)"
else
    echo "keepalive: FAILED, a link dropped or was declared dead in: ${keepalive_failed[*]}"
fi
echo
report_machine \
    "bcstream: $("$bcstream" --version 2>&1 | head -n 1) ($bcstream)" \
    "python:  $("$python" --version 2>&1) (recording and timing only)" \
    "files:   ulimit -n $(ulimit -n)"
report_short
