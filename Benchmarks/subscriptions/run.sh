#!/usr/bin/env bash
# Many channels in one process: a Python websockets bcsvr server on loopback (server.py), and `bcstream listen --keys-file` with
# 1,000 to 10,000 channel keys. Prints start-up time, idle CPU and memory per channel. See measure.py.
#
#   Benchmarks/subscriptions/run.sh [--counts 1000,2500,5000,10000] [--idle SECONDS] [--small]
#
# BCSTREAM_BIN=path uses that bcstream instead of building a release one.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=../common.sh
source "$here/../common.sh"
counts=1000,2500,5000,10000
idle=5
python=${PYTHON:-python3}

usage() { sed -n '2,7s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }
while (($#)); do
    case $1 in
        --counts) counts=$2; shift 2 ;;
        --idle) idle=$2; shift 2 ;;
        --small) counts=50,100; idle=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; fail "unknown argument: $1" ;;
    esac
done

# Each channel is a socket on both sides (two processes): raise the soft limit to the hard one.
ulimit -n "$(ulimit -Hn)"
cd "$root"
if [[ -z ${BCSTREAM_BIN:-} ]]; then
    echo "building bcstream (release, .build-release)..." >&2
    swift build -c release --product bcstream --scratch-path .build-release >&2
    BCSTREAM_BIN=$root/.build-release/release/bcstream
fi
note_debug_build "$BCSTREAM_BIN"

work=$(mktemp -d "${TMPDIR:-/tmp}/bcstream-subscriptions.XXXXXX")
server=
cleanup() {
    if [[ -n $server ]]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# The server: a Python websockets (asyncio, epoll) bcsvr server that answers each SUB with one comment and then
# stays quiet, so the listeners sit idle. Not `bcstream replay`: its lws context polls every socket it holds on
# each wake-up, so at ten thousand connections the server, not the listener, would set the pace.
"$python" "$here/server.py" --message "$root/Tests/Payloads/1-comment-lci-string.json" \
    >"$work/server.out" 2>"$work/server.err" </dev/null &
server=$!
port=
for _ in $(seq 100); do
    port=$(sed -n 's/^port=\([0-9]*\).*/\1/p' "$work/server.out")
    [[ -n $port ]] && break
    sleep 0.1
done
[[ -n $port ]] || { cat "$work/server.err" >&2; fail "the server did not start"; }

echo "channels in one listen: Python websockets bcsvr server on 127.0.0.1:$port (one comment per channel, then idle)"
echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1); open files: $(ulimit -n)"
"$python" "$here/measure.py" --bcstream "$BCSTREAM_BIN" --url "ws://127.0.0.1:$port/" --counts "$counts" --idle "$idle"
