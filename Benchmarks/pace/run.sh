#!/usr/bin/env bash
# The pace benchmark: many lives, each at a live's pace, not one connection blasting. One `bcstream replay`
# sends RATE messages a second in all (default 5,000), spread over N channels (each channel one message every
# N/RATE s), and each receiver in turn follows all N channels for a window of SECONDS: bcstream listen
# --keys-file (ndjson), and the Python script a user would write instead (py_pace_receiver.py: websockets +
# msgspec, one connection and one task per channel). One table: CPU µs per message, messages/s received, peak
# memory and per channel, bcstream against Python. See Benchmarks/pace/README.md.
#
#   Benchmarks/pace/run.sh [--counts 10,100,1000,5000,19000] [--seconds 20] [--warmup 3] [--rate 5000] [--small]
#
# --counts: the channel counts N, one replay each (N + 200 must fit under `ulimit -Hn`). --seconds: the window
# measured, rounded up to whole intervals; it starts --warmup seconds plus one interval after the last channel
# subscribed. --rate: messages a second in all. --small: counts 10,100, a 3 s window, 1 s of warm-up (CI: under a
# minute on a debug build). Read the table by CPU µs/msg (each receiver's own cost) and msg/s received (≈ RATE;
# " !" and a note when not, saying whether the replay or the receiver fell short).
# BCSTREAM_BIN=path uses that bcstream (listen and replay) instead of building a release one into .build-release;
# BCSTREAM_BASELINE=path adds a "baseline" row for each N, the same listen with that binary, measured just before
# "bcstream" against the same replay: an A/B of two builds in one run. PYTHON=path picks the Python (python3).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=../common.sh
source "$here/../common.sh"
counts=10,100,1000,5000,19000
seconds=20
warmup=3
rate=5000
python=${PYTHON:-python3}

usage() { sed -n '2,18s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }
number() { [[ ${2:-} =~ ^[0-9]+(\.[0-9]+)?$ && ! ${2:-} =~ ^0+(\.0*)?$ ]] || fail "$1 wants a positive number"; }

while (($#)); do
    case $1 in
        --counts) [[ ${2:-} =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || fail "--counts wants numbers separated by commas (10,100)"
            counts=$2; shift 2 ;;
        --seconds) number "$1" "${2:-}"; seconds=$2; shift 2 ;;
        --warmup) [[ ${2:-} =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "--warmup wants a number of seconds"; warmup=$2; shift 2 ;;
        --rate) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || fail "--rate wants a whole number of messages a second"; rate=$2; shift 2 ;;
        --small) counts=10,100; seconds=3; warmup=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; fail "unknown argument: $1" ;;
    esac
done
IFS=, read -r -a channel_counts <<<"$counts"

# Each channel is a socket in the receiver and one in the replay (two processes): raise the soft limit on open
# files to the hard one, and refuse a count that would not fit before starting anything.
ulimit -n "$(ulimit -Hn)"
files=$(ulimit -n)
largest=0
for n in "${channel_counts[@]}"; do
    ((n <= largest)) || largest=$n
    ((n + 200 <= files)) || fail "$n channels need about $((n + 200)) open files in each process; the hard limit is $files (ulimit -Hn)"
    # The replay spaces a channel's messages in whole milliseconds.
    ((n * 1000 / rate >= 1)) || fail "$n channels at $rate messages/s would need each to send more often than once a millisecond"
done
read -r low high </proc/sys/net/ipv4/ip_local_port_range
((largest < high - low)) || fail "$largest connections from one address need more local ports than $low-$high"

"$python" -c 'import websockets, msgspec' 2>/dev/null \
    || fail "$python lacks websockets or msgspec: $python -m pip install -r $root/Benchmarks/peers/requirements.txt"
if [[ -n ${BCSTREAM_BASELINE:-} ]]; then
    [[ -x $BCSTREAM_BASELINE ]] || fail "BCSTREAM_BASELINE=$BCSTREAM_BASELINE is not an executable"
    note_debug_build "$BCSTREAM_BASELINE" BCSTREAM_BASELINE
fi

make_work pace
choose_bcstream

# What a live sends most: comments, joins, viewer counts and gifts (24 fixtures, 530 bytes on average), none that
# ends the live, each of a kind the Python script models. Every channel plays its own copy, looped.
fixtures=()
for family in 1-comment 3-join 23-viewer-count 35-gift; do
    fixtures+=("$root"/Tests/Payloads/"$family"-*.json)
done
for fixture in "${fixtures[@]}"; do [[ -f $fixture ]] || fail "no fixture $fixture"; done

# pace:0 .. pace:LARGEST-1, the first N of them for N channels.
seq 0 $((largest - 1)) | sed 's/^/pace:/' >"$work/keys.all"
results=$work/results.jsonl
short=()

# measure NAME N COMMAND...: one receiver against the running replay.
measure() {
    local name=$1 n=$2; shift 2
    echo "  $name..." >&2
    local status=0
    "$python" "$here/measure.py" run --name "$name" --channels "$n" --rate "$nominal" \
        --replay-pid "$replay" --replay-log "$work/replay.log" --stderr "$work/$name.err" --results "$results" \
        --warmup "$warmup" --seconds "$seconds" --start-timeout $((60 + n / 50)) -- "$@" &
    local pid=$!
    pids+=("$pid")
    wait "$pid" || status=$?
    pids=("$replay")  # it has been waited for: its number may be reused, never kill it now
    if ((status != 0)); then
        echo "$me: $name at $n channels failed; its stderr ends:" >&2
        tail -n 5 "$work/$name.err" >&2
        short+=("$name at $n channels (exit status $status; what went wrong is said above)")
    fi
    running "$replay" || fail "the replay ended while $name was measured at $n channels: $(tail -n 3 "$work/replay.log")"
}

started=$SECONDS
for n in "${channel_counts[@]}"; do
    milliseconds=$(((n * 1000 + rate / 2) / rate))
    interval=$(printf '%d.%03d' $((milliseconds / 1000)) $((milliseconds % 1000)))
    # replay takes whole milliseconds of SECONDS * 1000, rounded down: 0.0004 more keeps 0.029 from becoming 28 ms.
    interval_argument=${interval}4
    # The rate the replay is asked for once the interval is rounded to the millisecond.
    nominal=$(awk -v n="$n" -v ms="$milliseconds" 'BEGIN { printf "%.3f", n * 1000 / ms }')
    head -n "$n" "$work/keys.all" >"$work/keys"
    echo "$n channels, one message every $interval s each ($nominal messages/s in all):" >&2

    # One replay for every receiver of this N; its log says what it sent ("replay: sent ..." a message).
    : >"$work/replay.url"
    "$bcstream" replay --interval "$interval_argument" --loop --max-channels $((n + 100)) "${fixtures[@]}" \
        </dev/null >"$work/replay.url" 2>"$work/replay.log" &
    replay=$!
    pids+=("$replay")
    url=
    for _ in $(seq 100); do
        url=$(head -n 1 "$work/replay.url")
        [[ -n $url ]] && break
        running "$replay" || break
        sleep 0.1
    done
    [[ $url == ws://* ]] || fail "the replay did not start: $(head -c 500 "$work/replay.log")"

    # --no-compression: what listen --help advises for thousands of lives, and the Python script does not compress.
    # --connect-timeout 30 (the Python script's too): the replay, one lws thread, answers the upgrades of 19,000
    # connections opened at once in about 10 s on 2 cores, listen's default timeout; past it every channel gives
    # up and reconnects at once, a storm that can take either process to its open-file limit (see README.md).
    listen=(listen "$url" --keys-file "$work/keys" --format ndjson --no-compression --connect-timeout 30)
    if [[ -n ${BCSTREAM_BASELINE:-} ]]; then
        measure baseline "$n" "$BCSTREAM_BASELINE" "${listen[@]}"
    fi
    measure bcstream "$n" "$bcstream" "${listen[@]}"
    measure python "$n" "$python" "$here/py_pace_receiver.py" "$url" "$work/keys"

    kill "$replay" 2>/dev/null || true
    wait "$replay" 2>/dev/null || true
    pids=()
    rm -f "$work/replay.log"
done

echo
echo "pace benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'): $rate messages/s in all over N channels (each channel one" \
    "message every N/$rate s; comment, join, viewer-count and gift fixtures, 530 bytes on average), one bcstream" \
    "replay per N on loopback, no compression; each receiver measured over $seconds s (rounded up to a" \
    "whole number of intervals) after every channel subscribed, $warmup s and one interval of warm-up; stdout" \
    "written to a file whose lines are counted (as `listen > live.ndjson`)"
echo
"$python" "$here/measure.py" table --results "$results"
echo
report_machine \
    "bcstream: $bcstream${BCSTREAM_BASELINE:+ (baseline: $BCSTREAM_BASELINE)}" \
    "swift:   $(swift --version 2>&1 | head -n 1 || echo 'not found')" \
    "python:  $("$python" --version 2>&1), websockets $("$python" -c 'import websockets; print(websockets.__version__)'), msgspec $("$python" -c 'import msgspec; print(msgspec.__version__)')" \
    "files:   $files open files a process (ulimit -n); the run took $((SECONDS - started)) s"
report_short
