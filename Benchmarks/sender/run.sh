#!/usr/bin/env bash
# The sender benchmark: the same corpus sent by each sender in turn (a raw libwebsockets C server, then
# `bcstream replay --speed max` playing it as a recording) to the same counting C client, and one table of the
# sender's CPU per message, wall rate and peak memory. See Benchmarks/sender/README.md.
#
#   Benchmarks/sender/run.sh [--messages N] [--small]
#
# BCSTREAM_BIN=path uses that bcstream instead of building one; PYTHON=path picks the Python (default python3).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=../common.sh
source "$here/../common.sh"
peers=$root/Benchmarks/peers
messages=200000
python=${PYTHON:-python3}
key=bench

usage() { sed -n '2,8s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

while (($#)); do
    case $1 in
        --messages) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || fail "--messages wants a positive number"; messages=$2; shift 2 ;;
        --small) messages=5000; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; fail "unknown argument: $1" ;;
    esac
done

command -v "$python" >/dev/null || fail "no $python (PYTHON=path picks another)"
command -v cc >/dev/null || fail "no C compiler (cc)"
[[ -e /usr/include/libwebsockets.h ]] || fail "libwebsockets headers missing: apt-get install libwebsockets-dev"

# measure.py stops its sender and client when it is stopped, and they get SIGKILL if it dies first.
make_work sender

# The binaries.
choose_bcstream
cc -O2 -o "$work/lws_serve" "$here/lws_serve.c" -lwebsockets || fail "cannot compile lws_serve.c"
cc -O2 -o "$work/lws_count" "$peers/lws_count.c" -lwebsockets || fail "cannot compile lws_count.c"

# The corpus, once: plain lines for the C server, the same messages as a recording for bcstream replay.
fixtures=$("$python" "$here/measure.py" corpus --payloads "$root/Tests/Payloads" --messages "$messages" \
    --key "$key" --corpus "$work/corpus.txt" --recording "$work/recording.ndjson") \
    || fail "cannot write the corpus"
echo "corpus: $messages messages cycling over $fixtures fixtures, then {\"t\":8}" >&2

# A run that ran out of time is killed; at 1,000 messages/s and more, none should.
timeout=$((120 + messages / 1000))
short=()

# measure NAME SENDER... : runs one sender, then lws_count against it, and adds the sender to the results.
measure() {
    local name=$1; shift
    local slug=${name//[^a-zA-Z0-9]/_}
    echo "running $name..." >&2
    "$python" "$here/measure.py" run --name "$name" --out "$work/$slug.json" --log "$work" --timeout "$timeout" \
        -- "$@" -- "$work/lws_count" '{port}' "$key" &
    local pid=$!
    pids+=("$pid")
    local status=0
    wait "$pid" || status=$?
    pids=()  # it has been waited for: its number may be reused, never kill it now
    if ((status != 0)) || [[ ! -s $work/$slug.json ]]; then
        tail -n 5 "$work/$slug.sender.err" "$work/$slug.client.err" >&2 2>/dev/null || true
        short+=("$name: the run failed (measure.py exit status $status)")
        return
    fi
    cat "$work/$slug.json" >>"$work/results.jsonl"
    echo >>"$work/results.jsonl"
    local got client sender
    read -r got client sender < <("$python" -c 'import json, sys
r = json.load(open(sys.argv[1])); print(r["received"], r["client_status"], r["sender_status"])' "$work/$slug.json")
    if ((got != messages || client != 0)); then
        echo "run.sh: lws_count got $got of $messages messages from $name (exit status $client); its stderr ends:" >&2
        tail -n 5 "$work/$slug.client.err" >&2
        short+=("$name: lws_count got $got of $messages, exit status $client")
    fi
    if ((sender != 0)); then
        echo "run.sh: $name exited with status $sender; its stderr ends:" >&2
        tail -n 5 "$work/$slug.sender.err" >&2
        short+=("$name: exit status $sender")
    fi
}

measure "C libwebsockets server" "$work/lws_serve" 0 "$work/corpus.txt" "$messages"
grep -q "^served key=$key sent=$messages\$" "$work/C_libwebsockets_server.sender.err" \
    || short+=("C libwebsockets server: $(tail -n 1 "$work/C_libwebsockets_server.sender.err" 2>/dev/null || true)")
measure "bcstream replay --speed max" "$bcstream" replay "$work/recording.ndjson" --speed max

echo
echo "sender benchmark: $messages messages (fixtures of Tests/Payloads, $fixtures files cycled) over loopback," \
    "one libwebsockets C client counting them, no compression"
if [[ -s $work/results.jsonl ]]; then
    "$python" "$here/measure.py" table --results "$work/results.jsonl" --messages "$messages" \
        --baseline "C libwebsockets server"
fi
echo
report_machine \
    "bcstream: $("$bcstream" --version 2>&1 | head -n 1) ($bcstream)" \
    "lws:     libwebsockets $(lws_version), cc $(cc -dumpversion)" \
    "python:  $("$python" --version 2>&1) (corpus and timing only)"
report_short
