#!/usr/bin/env bash
# The decoding table: BCStream's fast engine and msgspec (Python, typed Structs with a tagged union on `t`,
# built from the same catalogue) over the same bytes, one core each, in one run. See Benchmarks/decode/README.md.
#
#   Benchmarks/decode/run.sh [--seconds S] [--small] [--corpus FILE ...]
#
# --corpus FILE adds a corpus of your own, timed beside the two built in, the same bytes for both decoders:
# one JSON message a line, bcsvr `MSG` lines, or a recording from `bcstream listen --record`. Repeatable.
# BCSTREAM_BENCH_BIN=path uses that bcstream-bench instead of building a release one;
# PYTHON=path picks the Python.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=../common.sh
source "$here/../common.sh"
seconds=3
python=${PYTHON:-python3}
extra=()

usage() { sed -n '2,10s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

while (($#)); do
    case $1 in
        --seconds) [[ ${2:-} =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "--seconds wants a number"; seconds=$2; shift 2 ;;
        --small) seconds=0.3; shift ;;
        --corpus)
            [[ -n ${2:-} ]] || fail "--corpus wants a file: one JSON message a line"
            [[ -f $2 && -r $2 ]] || fail "--corpus $2: no such readable file"
            extra+=("$2"); shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; fail "unknown argument: $1" ;;
    esac
done

"$python" -c 'import msgspec' 2>/dev/null || fail "$python lacks msgspec: $python -m pip install -r $root/Benchmarks/peers/requirements.txt"
work=$(mktemp -d "${TMPDIR:-/tmp}/bcstream-decode.XXXXXX")
trap 'rm -rf "$work"' EXIT

cd "$root"
# The bench is its own program, bcstream-bench (it was `bcstream bench`); a BCSTREAM_BIN alone would be ignored.
[[ -n ${BCSTREAM_BENCH_BIN:-} || -z ${BCSTREAM_BIN:-} ]] \
    || fail "this benchmark runs bcstream-bench: set BCSTREAM_BENCH_BIN=path/bcstream-bench, not BCSTREAM_BIN"
bench=${BCSTREAM_BENCH_BIN:-}
if [[ -z $bench ]]; then
    echo "building bcstream-bench (release) ..." >&2
    swift build -c release --product bcstream-bench --scratch-path .build-release >&2
    swift build -c release --product MallocInterposerSwift --scratch-path .build-release >&2  # allocs/msg
    bench=.build-release/release/bcstream-bench
fi
[[ -x $bench ]] || fail "BCSTREAM_BENCH_BIN=$bench is not an executable"
note_debug_build "$bench" BCSTREAM_BENCH_BIN
echo "building bcstream-codegen (the catalogue as a JSON Schema, for the msgspec Structs) ..." >&2
swift build --product bcstream-codegen >&2
"$(swift build --show-bin-path)/bcstream-codegen" --json-schema > "$work/schema.json"

# One core for both, the same one: figures per core, comparable.
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)

echo "machine:  $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores online"
echo "software: $("$python" -c 'import sys, msgspec; print(f"Python {sys.version.split()[0]}, msgspec {msgspec.__version__}")'); $(swift --version 2>/dev/null | head -1 | sed 's/ (.*//')"
echo "timing:   about $seconds s of CPU time per decoder and corpus, one core (${pin[*]:-unpinned})"
echo
printf '%-30s %15s %15s %18s\n' "corpus" "bcstream msg/s" "msgspec msg/s" "bcstream/msgspec"
for corpus in fixtures captured-style "${extra[@]}"; do
    file="$work/$(basename "$corpus").ndjson"
    # Built-in corpora by name; a file of your own is read (and checked) by the bench itself, and saved the same
    # way so that both decoders get exactly the lines the bench kept.
    if ! "$bench" --corpus "$corpus" --save-corpus "$file" > /dev/null 2> "$work/error"; then
        fail "corpus $corpus: $(head -1 "$work/error" | sed 's/^Error: //')"
    fi
    ours=$("${pin[@]}" "$bench" --only fast --corpus "$file" --seconds "$seconds" \
        | awk '/^BCStream fast path/ { gsub(",", "", $4); print $4 }')
    [[ -n $ours ]] || fail "bcstream-bench printed no rate for $corpus"
    theirs=$("${pin[@]}" "$python" "$here/msgspec_decode.py" --schema "$work/schema.json" --corpus "$file" \
        --seconds "$seconds" | "$python" -c 'import json, sys; r = json.load(sys.stdin); print(int(r["messages_per_second"]), r["typed"], r["untyped"])')
    read -r rate typed untyped <<< "$theirs"
    messages=$(wc -l < "$file")
    ratio=$("$python" -c "print(f'{$ours / $rate:.2f}x')")
    printf '%-30s %15s %15s %18s\n' "$(basename "$corpus") ($messages msgs)" "$ours" "$rate" "$ratio"
    [[ $untyped == 0 ]] || echo "  (msgspec: $typed typed, $untyped untyped: unknown kinds, decoded as plain objects)"
done
