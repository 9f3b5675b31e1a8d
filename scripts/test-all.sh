#!/usr/bin/env bash
# The whole test suite, as the README's second command and CI (.ci/run) run it, after the packages are installed:
#   1. swift test: every Swift Testing suite (unit, loopback integration against the Python peers, the built CLI),
#      the NATS suites last and one at a time;
#   2. the hostile-peer suite (Tests/Hostile, pytest): raw-socket servers and clients against the built bcstream;
#   3. every fuzz target for 20 seconds (Fuzz/run.sh: the decoders and each parser of outside bytes);
#   4. the benchmarks, small, so that they keep working: the peers (Benchmarks/peers), decoding beside msgspec
#      (Benchmarks/decode), replay as a sender beside a C server (Benchmarks/sender), busy channels on every core
#      (Benchmarks/channels), many channels in one listen (Benchmarks/subscriptions), the same rate over 10 and 100
#      channels at a live's pace beside the Python script a user would write (Benchmarks/pace) and the fleet drill
#      (Benchmarks/fleet: a worker killed and a NATS node restarted under 300 lives);
#   5. the libwebsockets binding's tests once more under AddressSanitizer.
#
#   bash scripts/test-all.sh           everything above (38 min on this project's 2-core machine)
#   bash scripts/test-all.sh --quick   the build and the Swift suites alone, as step 1 runs them (about 7 min)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=false
case "${1:-}" in
    --quick) quick=true ;;
    "") ;;
    *) echo "usage: bash scripts/test-all.sh [--quick]" >&2; exit 64 ;;
esac

swift build --build-tests
# The DocC archives of every library target, with warnings as errors, and no public symbol without a doc comment.
$quick || bash scripts/docs.sh --strict
# The NATS suites start real nats-server processes (a three-node cluster among them) and time claims and
# redeliveries: they run after the rest, one at a time, so that two cores shared with 400 other tests cannot
# starve a worker's in-progress acks past its claim timeout.
nats_suites='BCNATSTests|ListenPublishTests|FleetWorkerTests|FleetClusterTests|FleetStreamContractTests|MetricsPortTests'
swift test --skip-build --skip "$nats_suites"
swift test --skip-build --no-parallel --filter "$nats_suites"
$quick && exit 0

BCSTREAM_BIN="$(swift build --show-bin-path)/bcstream" python3 -m pytest -q Tests/Hostile

# The products from outside the checkout: a package in a temporary folder whose manifest holds the README's
# "Use it in a package" lines as printed (the URL led to a clone of HEAD tagged with the README's version) and that
# uses only the products (BCFixtures, BCMessages, BCReplay, BCListener, BCAudit, BCConsole, BCHTTP). About 2 minutes.
bash scripts/consumer-package.sh

bash Fuzz/run.sh 20

# The WebSocket conformance suite (Autobahn) against both roles, strictly; the subset scripts/autobahn.sh names.
bash scripts/autobahn.sh

# The peer benchmark, small and on the debug build: it only has to keep working here (figures come from
# `Benchmarks/peers/run.sh` on a release build, see the README's Performance section).
BCSTREAM_BIN="$(swift build --show-bin-path)/bcstream" bash Benchmarks/peers/run.sh --small
BCSTREAM_BENCH_BIN="$(swift build --show-bin-path)/bcstream-bench" bash Benchmarks/decode/run.sh --small
BCSTREAM_BIN="$(swift build --show-bin-path)/bcstream" bash Benchmarks/sender/run.sh --small
BCSTREAM_BIN="$(swift build --show-bin-path)/bcstream" bash Benchmarks/channels/run.sh --small
BCSTREAM_BIN="$(swift build --show-bin-path)/bcstream" bash Benchmarks/subscriptions/run.sh --small
BCSTREAM_BIN="$(swift build --show-bin-path)/bcstream" bash Benchmarks/pace/run.sh --small
BCSTREAM_BIN="$(swift build --show-bin-path)/bcstream" bash Benchmarks/replay/subscribers.sh 500

# The fleet benchmark, tiny: it only has to keep working (figures: Benchmarks/nats/worker-lives.sh, 1,000 lives).
LIVES=20 WINDOW=2 BCSTREAM="$(swift build --show-bin-path)/bcstream" bash Benchmarks/nats/worker-lives.sh
# The fleet drill, small (300 lives, 3 workers, a minute): a worker SIGKILLed and a NATS node restarted mid-way; it
# fails when a live is not followed to its end, a message is stored twice or lost outside a take-over, or a re-claim
# is slow (figures: the full drill, 20,000 lives, in the README's fleet section).
LIVES=300 WORKERS=3 REPLAYS=1 MESSAGES=12 PACE=4 CLAIM_TIMEOUT=8 BUILD=debug \
    BCSTREAM_BIN="$(swift build --show-bin-path)/bcstream" bash Benchmarks/fleet/drill.sh


# Memory errors only: LeakSanitizer reports allocations that libwebsockets and Foundation's Process keep until
# exit (not ours to free), so leak detection is off here. lld, as Fuzz/run.sh links: the system's gold linker
# warns about every AddressSanitizer symbol it cannot export (some 800 lines of noise in the log).
ASAN_OPTIONS=detect_leaks=0 swift test --sanitize=address --scratch-path .build-asan -Xswiftc -use-ld=lld --filter 'BCWebSocketTests|BCHTTPTests'
