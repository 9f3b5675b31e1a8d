#!/usr/bin/env bash
# The README's performance tables, all from one run of this script: it runs the benchmarks on one release build
# and prints their tables as Markdown, headed by the date and the machine. Everything between the README's report
# markers comes from here: rerun this to refresh it. The README's other figures (the fleet drill's, Autobahn's) are
# copied by hand from their own scripts, each with its date.
#
#   Benchmarks/report.sh [--small] [--update-readme]
#
# --small          a quick run (the debug-sized corpora) to check that the report still comes out; its figures
#                  are not worth publishing.
# --update-readme  also writes the tables into README.md, between its `<!-- report:begin -->` and
#                  `<!-- report:end -->` lines.
# The benchmarks: receiving beside the peers (Benchmarks/peers, on the fixtures and on the captured-style
# corpus), decoding beside msgspec (Benchmarks/decode), and end to end (bcstream-bench --end-to-end).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$here/common.sh"
small=
update=
usage() { sed -n '2,14s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }
while (($#)); do
    case $1 in
        --small) small=1; shift ;;
        --update-readme) update=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; fail "unknown argument: $1" ;;
    esac
done

make_work report
cd "$root"
echo "building bcstream and bcstream-bench (release, .build-release)..." >&2
swift build -c release --product bcstream --scratch-path .build-release >&2 || fail "swift build failed"
swift build -c release --product bcstream-bench --scratch-path .build-release >&2 || fail "swift build failed"
bin=$root/.build-release/release
export BCSTREAM_BIN=$bin/bcstream BCSTREAM_BENCH_BIN=$bin/bcstream-bench

peer_args=() decode_args=(--seconds 3) e2e_args=()
[[ -n $small ]] && peer_args=(--small) decode_args=(--small) e2e_args=(--messages 20000)

# The captured-style corpus as a file, for the peer benchmark's --corpus.
"$BCSTREAM_BENCH_BIN" --corpus captured-style --save-corpus "$work/captured-style.ndjson" >/dev/null

# table FILE: the Markdown table lines a benchmark printed.
table() { grep '^|' "$1"; }

echo "running the peer benchmark on the fixtures..." >&2
bash "$here/peers/run.sh" "${peer_args[@]}" >"$work/peers-fixtures.txt"
echo "running the peer benchmark on the captured-style corpus..." >&2
bash "$here/peers/run.sh" "${peer_args[@]}" --corpus "$work/captured-style.ndjson" >"$work/peers-captured.txt"
echo "running the decoding benchmark..." >&2
bash "$here/decode/run.sh" "${decode_args[@]}" >"$work/decode.txt"
echo "running end to end..." >&2
"$BCSTREAM_BENCH_BIN" --end-to-end "${e2e_args[@]}" >"$work/e2e.txt"

messages=$(sed -n 's/^peer benchmark: \([0-9]*\) messages.*/\1/p' "$work/peers-fixtures.txt" | head -n 1)
python=${PYTHON:-python3}
versions=$("$python" -c 'import sys, msgspec, websockets; print(f"Python {sys.version.split()[0]}, websockets {websockets.__version__}, msgspec {msgspec.__version__}")')
{
    echo "Measured on $(date -u +%Y-%m-%d) by \`Benchmarks/report.sh\`$([[ -n $small ]] && echo ' --small (NOT publishable)'):" \
        "$(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)," \
        "$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(uname -sr);" \
        "$(swift --version 2>/dev/null | head -n 1 | sed 's/ (.*//'), $versions, libwebsockets $(lws_version)." \
        "The machine is shared: figures move 10–20% between runs; the ratios, measured in the same run, hold better."
    echo
    echo "**Receiving** ${messages:-?} messages over loopback from one Python sender, the fixtures cycled:"
    echo
    table "$work/peers-fixtures.txt"
    echo
    echo "The same on the captured-style corpus (540-byte comments, gifts, joins and viewer counts in the captured shapes):"
    echo
    table "$work/peers-captured.txt"
    echo
    echo "**Decoding** the same bytes on one core, BCStream beside msgspec (typed Structs built from the same catalogue):"
    echo
    echo "| corpus | BCStream msg/s | msgspec msg/s | BCStream / msgspec |"
    echo "|---|---:|---:|---:|"
    awk '/^corpus / { on = 1; next } on && NF >= 4 && $NF ~ /x$/ {
        n = NF; printf "| %s", $1; for (i = 2; i <= n - 3; i++) printf " %s", $i
        printf " | %s | %s | %s |\n", $(n-2), $(n-1), $n }' "$work/decode.txt"
    echo
    echo "**End to end**: \`bcstream replay\` → WebSocket → \`ChannelListener\` → decoded value, in one process:"
    echo
    echo '```'
    grep -E '^(end to end|  )' "$work/e2e.txt"
    echo '```'
} >"$work/report.md"

cat "$work/report.md"
if [[ -n $update ]]; then
    grep -q '^<!-- report:begin -->$' README.md && grep -q '^<!-- report:end -->$' README.md \
        || fail "README.md has no <!-- report:begin --> / <!-- report:end --> lines to write between"
    "$python" - "$work/report.md" <<'PY'
import sys
report = open(sys.argv[1]).read()
text = open("README.md").read()
head, rest = text.split("<!-- report:begin -->\n", 1)
_, tail = rest.split("<!-- report:end -->\n", 1)
open("README.md", "w").write(head + "<!-- report:begin -->\n" + report + "<!-- report:end -->\n" + tail)
PY
    echo "report.sh: README.md updated" >&2
fi
