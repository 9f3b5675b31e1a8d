#!/usr/bin/env bash
# The peer benchmark: one Python sender on loopback, the same corpus to each receiver in turn (bcstream
# listen in ndjson and text, a Python websockets + msgspec script, a raw libwebsockets C client), and one
# table of CPU per message, wall rate and peak memory. See Benchmarks/peers/README.md.
#
#   Benchmarks/peers/run.sh [--messages N] [--small] [--rounds N] [--corpus FILE]
#
# --corpus FILE sends your own messages instead of the fixtures (one JSON message, or one bcsvr MSG line, a
# line; the kinds that end a live are left out), cycled up to N.
# BCSTREAM_BIN=path uses that bcstream instead of building one; PYTHON=path picks the Python (default python3).
# BCSTREAM_BASELINE=path adds a "baseline ndjson" row measured with that binary, alternating with "bcstream
# ndjson" --rounds times (default 1): an A/B of two builds in one run, on the same sender.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=../common.sh
source "$here/../common.sh"
messages=200000
rounds=1
corpus=
python=${PYTHON:-python3}
key=bench

usage() { sed -n '2,11s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

while (($#)); do
    case $1 in
        --messages) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || fail "--messages wants a positive number"; messages=$2; shift 2 ;;
        --small) messages=5000; shift ;;
        --rounds) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || fail "--rounds wants a positive number"; rounds=$2; shift 2 ;;
        --corpus)
            [[ -n ${2:-} && -f $2 && -r $2 ]] || fail "--corpus wants a readable file: one JSON message a line"
            corpus=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; fail "unknown argument: $1" ;;
    esac
done

"$python" -c 'import websockets, msgspec' 2>/dev/null \
    || fail "$python lacks websockets or msgspec: $python -m pip install -r $here/requirements.txt"
command -v cc >/dev/null || fail "no C compiler (cc)"
[[ -e /usr/include/libwebsockets.h ]] || fail "libwebsockets headers missing: apt-get install libwebsockets-dev"

make_work peers

# The binaries.
choose_bcstream
cc -O2 -o "$work/lws_count" "$here/lws_count.c" -lwebsockets || fail "cannot compile lws_count.c"

# The sender: one process for the whole run, serving each receiver in turn. Its output file exists before it
# starts, so reading it for the port never races the child's redirection.
: >"$work/sender.out"
source_args=(--payloads "$root/Tests/Payloads")
source_name="fixtures of Tests/Payloads"
if [[ -n $corpus ]]; then
    source_args=(--corpus "$corpus")
    source_name="lines of $(basename "$corpus")"
fi
"$python" "$here/sender.py" "${source_args[@]}" --messages "$messages" \
    >"$work/sender.out" 2>"$work/sender.err" </dev/null &
sender=$!
pids+=("$sender")
port=
for _ in $(seq 100); do
    port=$(sed -n 's/^port=\([0-9]*\).*/\1/p' "$work/sender.out")
    [[ -n $port ]] && break
    kill -0 "$sender" 2>/dev/null || break
    sleep 0.1
done
[[ -n $port ]] || { cat "$work/sender.err" >&2; fail "the sender did not start"; }
fixtures=$(sed -n 's/^port=[0-9]* fixtures=\([0-9]*\).*/\1/p' "$work/sender.out")
url="ws://127.0.0.1:$port/"
echo "sender on $url: $messages messages cycling over $fixtures messages ($source_name), then {\"t\":8}" >&2

# A receiver that ran out of time is killed; at 1,000 messages/s and more, none should.
timeout=$((120 + messages / 1000))
short=()
served=0

# measure NAME COMMAND...: runs one receiver against the sender, stdout to /dev/null.
measure() {
    local name=$1; shift
    local slug=${name//[^a-zA-Z0-9]/_}
    echo "running $name..." >&2
    "$python" "$here/measure.py" run --out "$work/$slug.json" --stderr "$work/$slug.err" \
        --timeout "$timeout" -- "$@" >/dev/null &
    local pid=$!
    pids+=("$pid")
    local status=0
    wait "$pid" || status=$?
    pids=("$sender")  # it has been waited for: its number may be reused, never kill it now
    served=$((served + 1))
    # The sender reports the client once the connection is over.
    local line=
    for _ in $(seq 50); do
        line=$(grep -E "^(served|failed) client=$served " "$work/sender.out" || true)
        [[ -n $line ]] && break
        sleep 0.1
    done
    local got
    got=$("$python" "$here/measure.py" record --name "$name" --out "$work/$slug.json" --stderr "$work/$slug.err" \
        --sender-line "$line" --results "$work/results.jsonl")
    if ((status != 0 || got != messages)); then
        echo "run.sh: $name received $got of $messages messages (exit status $status); its stderr ends:" >&2
        tail -n 5 "$work/$slug.err" >&2
        short+=("$name: $got of $messages, exit status $status")
    fi
}

if [[ -n ${BCSTREAM_BASELINE:-} ]]; then
    [[ -x $BCSTREAM_BASELINE ]] || fail "BCSTREAM_BASELINE=$BCSTREAM_BASELINE is not an executable"
    for ((round = 1; round <= rounds; round++)); do
        suffix=""
        ((rounds == 1)) || suffix=" $round"
        measure "baseline ndjson$suffix" "$BCSTREAM_BASELINE" listen "$url" --key "$key" --format ndjson
        measure "bcstream ndjson$suffix" "$bcstream" listen "$url" --key "$key" --format ndjson
    done
else
    measure "bcstream ndjson" "$bcstream" listen "$url" --key "$key" --format ndjson
fi
measure "bcstream text" "$bcstream" listen "$url" --key "$key" --format text
measure "python websockets+msgspec" "$python" "$here/py_receiver.py" "$url" "$key"
measure "libwebsockets C (count only)" "$work/lws_count" "$port" "$key"

echo
echo "peer benchmark: $messages messages ($source_name, $fixtures cycled) over loopback," \
    "one Python websockets sender, no compression"
"$python" "$here/measure.py" table --results "$work/results.jsonl" --messages "$messages" --baseline "bcstream ndjson${suffix:-}"
echo
report_machine \
    "swift:   $(swift --version 2>&1 | head -n 1 || echo 'not found')" \
    "python:  $("$python" --version 2>&1), websockets $("$python" -c 'import websockets; print(websockets.__version__)'), msgspec $("$python" -c 'import msgspec; print(msgspec.__version__)')" \
    "lws:     libwebsockets $(lws_version)"
report_short
