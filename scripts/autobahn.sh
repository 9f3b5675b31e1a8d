#!/usr/bin/env bash
# The Autobahn TestSuite (WebSocket conformance) against BCWebSocket in both roles, through autobahn-echo
# (Sources/autobahn-echo): its client under the fuzzing server, its server under the fuzzing client. Strict: exits
# non-zero when a case FAILED or is NON-STRICT in either role (INFORMATIONAL cases are allowed).
#   scripts/autobahn.sh           every group but 9.x, both roles (463 cases each): what the README's test command runs
#   scripts/autobahn.sh --full    all 517 cases, 9.x too (messages up to 16 MiB), and the summaries to publish
# CASES / EXCLUDE (JSON lists) override the selection. With wsaccel (scripts/autobahn/setup.sh) the suite is no longer the bottleneck:
# the full run took 4 min for the client (docs/BCWebSocket.md, "Conformance").
# The suite is installed by scripts/autobahn/setup.sh from PyPI, pinned, into a cache outside the checkout
# (~/.cache/bcstream; reused by later runs and clones). Reports: ${AUTOBAHN_OUT:-.build-release/autobahn}.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${AUTOBAHN_OUT:-.build-release/autobahn}
full=false
[ "${1:-}" = "--full" ] && full=true
if $full; then
    unset CASES EXCLUDE
elif [ -z "${CASES:-}${EXCLUDE:-}" ]; then
    export EXCLUDE='["9.*"]'
fi

suite=$(bash scripts/autobahn/setup.sh) || { echo "autobahn: could not install the suite (scripts/autobahn/setup.sh)"; exit 2; }
swift build -c release --scratch-path .build-release --product autobahn-echo 2>&1 | tail -1
echo_bin=.build-release/release/autobahn-echo
[ -x "$echo_bin" ] || { echo "autobahn: autobahn-echo did not build"; exit 2; }

# 9.x sends messages of up to 16 MiB.
cap=$((20 * 1024 * 1024))
port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
rm -rf "$out" && mkdir -p "$out"
started=$(date +%s)

# The suite's spec: which cases, and where the peer or the reports are. $1 the role's report folder, $2 what the
# role adds ("url" for the fuzzing server, "servers" for the fuzzing client).
spec() {
    mkdir -p "$1"
    printf '{"outdir": "%s", %s, "cases": %s, "exclude-cases": %s, "exclude-agent-cases": {}}\n' \
        "$1" "$2" "${CASES:-[\"*\"]}" "${EXCLUDE:-[]}" >"$1/spec.json"
}

# The client role: the suite's fuzzing server, and autobahn-echo's client running every case against it (it asks
# for the case count, runs each case echoing every message back, then asks for the reports).
client_port=$(port)
spec "$out/client" "\"url\": \"ws://127.0.0.1:$client_port\""
"$suite/wstest" -m fuzzingserver -s "$out/client/spec.json" -u 0 >"$out/client/server.log" 2>&1 & fuzzer=$!
trap 'kill $fuzzer 2>/dev/null; wait $fuzzer 2>/dev/null' EXIT
for _ in $(seq 100); do grep -q "Fuzzing Server" "$out/client/server.log" 2>/dev/null && break; sleep 0.2; done
"$echo_bin" client "ws://127.0.0.1:$client_port" bcstream-client --max-message-size "$cap" || true
kill $fuzzer 2>/dev/null; wait $fuzzer 2>/dev/null
client_seconds=$(( $(date +%s) - started ))

# The server role: autobahn-echo's server, and the suite's fuzzing client running every case against it.
server_port=$(port)
"$echo_bin" server "$server_port" --max-message-size "$cap" >"$out/echo-server.log" 2>&1 & server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null' EXIT
for _ in $(seq 50); do grep -q echoing "$out/echo-server.log" && break; sleep 0.1; done
spec "$out/server" "\"servers\": [{\"agent\": \"bcstream-server\", \"url\": \"ws://127.0.0.1:$server_port\"}]"
"$suite/wstest" -m fuzzingclient -s "$out/server/spec.json" >"$out/server/client.log" 2>&1

total_seconds=$(( $(date +%s) - started ))
echo "autobahn: client ${client_seconds} s, server $(( total_seconds - client_seconds )) s, both roles ${total_seconds} s"
status=0
python3 scripts/autobahn/summarize.py "$out/client" --strict || status=1
python3 scripts/autobahn/summarize.py "$out/server" --strict || status=1
exit $status
