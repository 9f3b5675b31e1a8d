#!/usr/bin/env bash
# Fuzzes BCMessages' decoders: the fast engine against Foundation's, lenient and strict (Fuzz/FuzzDecoders.swift).
#
#   bash Fuzz/run.sh [SECONDS]      # default 60; CI runs it for about a minute, `bash Fuzz/run.sh 3600` for longer
#
# Builds .build-fuzz/fuzz-decoders (BCMessages' sources and the target as one module, with libFuzzer and
# AddressSanitizer; Package.swift is not involved), then runs it for SECONDS on one core over a copy of
# Fuzz/corpus in a temporary directory: the committed seed corpus is never written to. Exits non-zero if the
# fuzzer finds a crash, a disagreement between the engines, a timeout or an out-of-memory; the input that did it
# is kept in .build-fuzz/artifacts/, and the way to run it again is printed.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
if ! [[ $seconds =~ ^[0-9]+$ ]] || (( seconds < 1 )); then
    echo "usage: bash Fuzz/run.sh [SECONDS]" >&2
    exit 2
fi

out=.build-fuzz
binary=$out/fuzz-decoders
artifacts=$out/artifacts
mkdir -p "$out" "$artifacts"

echo "fuzz: building $binary"
sources=$(find Sources/BCMessages -name '*.swift' | LC_ALL=C sort)
# shellcheck disable=SC2086 # one word per source file
# lld: the system's gold linker warns about every AddressSanitizer symbol it cannot export.
swiftc -O -wmo -swift-version 6 -sanitize=fuzzer,address -parse-as-library -module-name BCMessages -use-ld=lld \
    $sources Fuzz/FuzzDecoders.swift -o "$binary"

work=$(mktemp -d "${TMPDIR:-/tmp}/bcstream-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
cp Fuzz/corpus/* "$work/corpus/"
seeds=$(find "$work/corpus" -type f | wc -l)
started=$(date +%s)
echo "fuzz: running $binary for ${seconds}s over a copy of Fuzz/corpus ($seeds seeds) in $work"

# JSONDecoder allocates on every probe it makes; recording a deep stack for each allocation would take most of
# the time. Three frames still name an allocation's site; the access that fails gets its whole stack.
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=3}
# A trap goes straight to libFuzzer's handler: Swift's own crash backtracer, running inside the instrumented
# process, makes AddressSanitizer report a stack-buffer-underflow of its own after every fatalError.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}
status=0
"$binary" "$work/corpus" -dict=Fuzz/json.dict -max_total_time="$seconds" -max_len=65536 -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/" >"$work/log" 2>&1 || status=$?

elapsed=$(( $(date +%s) - started ))
stat() { sed -n "s/^stat::$1: *//p" "$work/log" | tail -1; }
executed=$(stat number_of_executed_units)
rate=$(stat average_exec_per_sec)
corpus=$(find "$work/corpus" -type f | wc -l)
echo "fuzz: ${executed:-?} inputs executed in ${elapsed}s (${rate:-?}/s), corpus $seeds -> $corpus inputs," \
    "$(grep -o 'cov: [0-9]*' "$work/log" | tail -1 | tr -d :) edges"

if (( status != 0 )); then
    # The libFuzzer report: the first line that names the failure, the trap's message, and the end of the log.
    grep -m 3 -E 'ERROR: libFuzzer|ERROR: AddressSanitizer|disagree|Fatal error' "$work/log" >&2 || true
    tail -n 40 "$work/log" >&2
    input=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$work/log" | tail -1)
    echo >&2
    echo "fuzz: FAILED (libFuzzer exit status $status) after ${elapsed}s" >&2
    if [[ -n $input ]]; then
        echo "fuzz: the input is $input ($(wc -c <"$input") bytes); to run it again:" >&2
        echo "    $binary $input" >&2
        echo "    (bash Fuzz/run.sh 1 builds $binary first; xxd $input shows the bytes)" >&2
    fi
    exit 1
fi
echo "fuzz: no crash, no disagreement"
