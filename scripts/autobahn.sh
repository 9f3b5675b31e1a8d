#!/usr/bin/env bash
# The Autobahn TestSuite (WebSocket conformance) against BCWebSocket in both roles, through autobahn-echo
# (Sources/autobahn-echo): its client under the fuzzing server, its server under the fuzzing client. Strict: exits
# non-zero when a case FAILED or is NON-STRICT in either role (INFORMATIONAL cases are allowed).
#   scripts/autobahn.sh           every group but 9.x, both roles (463 cases each): what the README's test command runs
#   scripts/autobahn.sh --full    all 517 cases, 9.x too (messages up to 16 MiB), and the summaries to publish
# CASES / EXCLUDE (JSON lists) override the selection. With wsaccel (below) the suite is no longer the bottleneck:
# the full run took 4 min for the client (docs/BCWebSocket.md, "Conformance").
# The suite comes from ../shared/autobahn (beside the repository; AUTOBAHN_SHARED overrides) and is installed once
# into ${AUTOBAHN_DIR:-${TMPDIR:-/tmp}/bcstream-autobahn}. Reports: ${AUTOBAHN_OUT:-.build-release/autobahn}.
set -uo pipefail
cd "$(dirname "$0")/.."
shared=${AUTOBAHN_SHARED:-../shared/autobahn}
suite=${AUTOBAHN_DIR:-${TMPDIR:-/tmp}/bcstream-autobahn}
out=${AUTOBAHN_OUT:-.build-release/autobahn}
full=false
[ "${1:-}" = "--full" ] && full=true
if $full; then
    unset CASES EXCLUDE
elif [ -z "${CASES:-}${EXCLUDE:-}" ]; then
    export EXCLUDE='["9.*"]'
fi

"$shared/setup.sh" "$suite" >/dev/null || { echo "autobahn: could not install the suite into $suite"; exit 2; }
# wsaccel is the C UTF-8 validator autobahn picks up when present (autobahn/websocket/utf8validator.py); without it
# the suite checks every echoed byte in pure Python, which was 75% of its time in 12.x (cProfile of 12.1.10).
"$suite/venv/bin/pip" install -q wsaccel==0.6.7 || { echo "autobahn: could not install wsaccel into $suite"; exit 2; }
swift build -c release --scratch-path .build-release --product autobahn-echo 2>&1 | tail -1
echo_bin=.build-release/release/autobahn-echo
[ -x "$echo_bin" ] || { echo "autobahn: autobahn-echo did not build"; exit 2; }

# 9.x sends messages of up to 16 MiB.
cap=$((20 * 1024 * 1024))
port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
rm -rf "$out" && mkdir -p "$out"
started=$(date +%s)

client_port=$(port)
"$shared/fuzzingserver.sh" "$suite" "$client_port" "$out/client" \
    "$echo_bin" client "ws://127.0.0.1:$client_port" bcstream-client --max-message-size "$cap" || true
client_seconds=$(( $(date +%s) - started ))

server_port=$(port)
"$echo_bin" server "$server_port" --max-message-size "$cap" >"$out/echo-server.log" 2>&1 & server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null' EXIT
for _ in $(seq 50); do grep -q echoing "$out/echo-server.log" && break; sleep 0.1; done
"$shared/fuzzingclient.sh" "$suite" "$server_port" "$out/server" bcstream-server

total_seconds=$(( $(date +%s) - started ))
echo "autobahn: client ${client_seconds} s, server $(( total_seconds - client_seconds )) s, both roles ${total_seconds} s"
status=0
python3 "$shared/summarize.py" "$out/client" --strict || status=1
python3 "$shared/summarize.py" "$out/server" --strict || status=1
exit $status
