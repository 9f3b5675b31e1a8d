#!/usr/bin/env bash
# The DocC documentation of every library target, in one invocation of swift-docc-plugin (one
# symbol graph build for all of them), with every DocC warning an error: an unresolved ``Symbol`` link, a
# parameter documented for one argument but not the next... Archives: .build-docs/<Target>.doccarchive.
# BCNATS is no product and has no catalogue: it is built for its doc comments.
# Then the public symbols with no doc comment, listed per file (scripts/undocumented.py); with --strict, any
# of them fails the run too. Usage: bash scripts/docs.sh [--strict]
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(BCMessages BCWebSocket BCHTTP BCListener BCConsole BCLineEditor BCReplay BCFixtures BCAudit BCFleet BCNATS)
out=.build-docs
log="$out/docs.log"
mkdir -p "$out"

args=()
for target in "${targets[@]}"; do args+=(--target "$target"); done
status=0
swift package --allow-writing-to-directory "$out" generate-documentation "${args[@]}" \
    --output-path "$out" --warnings-as-errors >"$log" 2>&1 || status=$?
# docc prints its diagnostics as "warning:" or, under --warnings-as-errors, "error:"; the build's own lines too.
if [ "$status" -ne 0 ] || grep -qE '(warning|error):' "$log"; then
    grep -E '(warning|error):' "$log" || tail -20 "$log"
    echo "docs.sh: the documentation has $(grep -cE '(warning|error):' "$log") problem(s); full output: $log" >&2
    exit 1
fi
echo "docs.sh: ${#targets[@]} archives in $out, no warnings"

strict=0
[ "${1:-}" = "--strict" ] && strict=1
python3 scripts/undocumented.py --summary "${targets[@]}" || [ "$strict" -eq 0 ]
