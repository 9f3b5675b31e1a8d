#!/usr/bin/env bash
# Fuzzes every hand-written parser of outside bytes, one libFuzzer target each under AddressSanitizer
# (Fuzz/README.md says what each asserts):
#
#   bash Fuzz/run.sh [SECONDS] [TARGET...]   # each target for SECONDS (default 20); all targets unless named
#   bash Fuzz/run.sh 600                      # the long run: ten minutes each
#
# Targets: decoders frames server-frames handshake server-handshake bcsvr-lines recordings decode-input. Fuzz/<target>/ holds the target's
# Swift file and its seed corpus (corpus/), which is never written to: each run works on a copy in a temporary
# directory. Fuzz/*.swift is shared by every target.
#
# Builds into .build-fuzz/ with swiftc, without Package.swift: each library the targets reach (BCMessages,
# BCWebSocket, BCHTTP, BCListener, BCConsole, BCFixtures, BCReplay) once, as a static library compiled for testing
# (the targets use `@testable import` to reach internals), then each target as a small module linked against
# them; a library is rebuilt only when its sources, a library it depends on (or this script) changed. Exits non-zero if any target finds a crash, a
# failed assertion, a timeout or an out-of-memory; the input that did it is kept in .build-fuzz/artifacts/, and
# the way to run it again is printed.
set -euo pipefail
cd "$(dirname "$0")/.."

all_targets=(decoders frames server-frames handshake server-handshake bcsvr-lines recordings decode-input)
seconds=${1:-20}
if ! [[ $seconds =~ ^[0-9]+$ ]] || (( seconds < 1 )); then
    echo "usage: bash Fuzz/run.sh [SECONDS] [TARGET...] (targets: ${all_targets[*]})" >&2
    exit 2
fi
shift $(( $# > 0 ? 1 : 0 ))
targets=("$@")
(( ${#targets[@]} )) || targets=("${all_targets[@]}")

# What each target links (in dependency order), its extra sources, its longest input, its dictionary.
libraries() {
    case $1 in
        decoders) echo BCMessages ;;
        frames|server-frames|handshake|server-handshake) echo BCWebSocket ;;
        bcsvr-lines) echo BCMessages BCWebSocket BCHTTP BCListener ;;
        recordings|decode-input) echo BCMessages BCWebSocket BCHTTP BCListener BCConsole BCFixtures BCReplay ;;
        *) echo "fuzz: unknown target $1 (targets: ${all_targets[*]})" >&2; return 2 ;;
    esac
}
# The libraries a library imports (as in Package.swift): rebuilt before it, and it after them.
dependencies_of() {
    case $1 in
        BCHTTP) echo BCWebSocket ;;
        BCListener) echo BCMessages BCWebSocket BCHTTP ;;
        BCConsole) echo BCMessages BCListener ;;
        BCFixtures) echo BCMessages ;;
        BCReplay) echo BCConsole BCFixtures BCMessages BCListener BCWebSocket ;;
    esac
}
# Sources a target compiles beside its own folder.
extra_sources() {
    case $1 in
        server-frames) echo Fuzz/frames/FramePipeline.swift ;;
    esac
}
max_len() {
    case $1 in
        decoders) echo 65536 ;;
        recordings) echo 8192 ;;
        *) echo 8192 ;;
    esac
}

out=.build-fuzz
artifacts=$out/artifacts
mkdir -p "$out/modules" "$artifacts"
build_started=$(date +%s)

# lld: the system's gold linker warns about every AddressSanitizer symbol it cannot export. The C modules of
# BCWebSocket are found through their module maps; -package-name lets the modules see each other's `package`
# declarations, as under SwiftPM.
flags=(-O -swift-version 6 -sanitize=fuzzer,address -parse-as-library -package-name bcstream -use-ld=lld
       -I "$out/modules" -I Sources/CLibWebSockets -I Sources/CZlib -I Sources/COpenSSL)
# shellcheck disable=SC2207 # one word per flag
link=($(pkg-config --libs libwebsockets zlib openssl))

needed=()
for target in "${targets[@]}"; do
    for library in $(libraries "$target"); do
        [[ " ${needed[*]} " == *" $library "* ]] || needed+=("$library")
    done
done
# Where a library's sources are: Sources/NAME, but BCFixtures' (its target's folder is Tests, for the resources).
sources_of() { if [[ $1 == BCFixtures ]]; then echo Tests/BCFixtures; else echo "Sources/$1"; fi; }
# Builds the library when it is needed and older than its sources, a library it depends on (built before it,
# so a rebuilt one is newer) or this script, in the background.
build_library() {
    local library=$1 archive=$out/lib$1.a dependency inputs
    [[ " ${needed[*]} " == *" $library "* ]] || return 0
    inputs=("$(sources_of "$library")" Fuzz/run.sh)
    for dependency in $(dependencies_of "$library"); do inputs+=("$out/lib$dependency.a"); done
    if [[ -f $archive ]] && [[ -z $(find "${inputs[@]}" -newer "$archive" -print -quit 2>/dev/null) ]]; then
        return 0
    fi
    echo "fuzz: building $archive"
    # shellcheck disable=SC2046 # one word per source file
    swiftc "${flags[@]}" -wmo -enable-testing -emit-library -static -emit-module -module-name "$library" \
        -emit-module-path "$out/modules/$library.swiftmodule" \
        $(find "$(sources_of "$library")" -name '*.swift' | LC_ALL=C sort) -o "$archive" &
    pids+=($!)
}
# Waits for the builds started; fails when one did.
wait_builds() {
    local pid status=0
    for pid in "${pids[@]}"; do wait "$pid" || status=1; done
    pids=()
    (( status == 0 )) || { echo "fuzz: a build failed" >&2; exit 1; }
}
pids=()
# In dependency order, side by side where none depends on another: BCMessages and BCWebSocket; BCHTTP and
# BCFixtures; BCListener; BCConsole; BCReplay; then every target side by side.
for stage in "BCMessages BCWebSocket" "BCHTTP BCFixtures" BCListener BCConsole BCReplay; do
    for library in $stage; do build_library "$library"; done
    wait_builds
done
for target in "${targets[@]}"; do
    libs=()
    for library in $(libraries "$target"); do libs+=("$out/lib$library.a"); done
    echo "fuzz: building $out/fuzz-$target"
    # shellcheck disable=SC2046 # one word per source file
    swiftc "${flags[@]}" -module-name "Fuzz_${target//-/_}" Fuzz/*.swift Fuzz/"$target"/*.swift \
        $(extra_sources "$target") "${libs[@]}" "${link[@]}" -o "$out/fuzz-$target" &
    pids+=($!)
done
wait_builds
echo "fuzz: built in $(( $(date +%s) - build_started ))s"

work=$(mktemp -d "${TMPDIR:-/tmp}/bcstream-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

# JSONDecoder allocates on every probe it makes; recording a deep stack for each allocation would take most of
# the time. Three frames still name an allocation's site; the access that fails gets its whole stack.
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=3}
# A trap goes straight to libFuzzer's handler: Swift's own crash backtracer, running inside the instrumented
# process, makes AddressSanitizer report a stack-buffer-underflow of its own after every fatalError.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}

failed=()
summary=()
for target in "${targets[@]}"; do
    binary=$out/fuzz-$target
    mkdir "$work/$target"
    cp Fuzz/"$target"/corpus/* "$work/$target/"
    seeds=$(find "$work/$target" -type f | wc -l)
    dict=()
    for file in Fuzz/"$target"/*.dict; do [[ -f $file ]] && dict=(-dict="$file"); done
    echo "fuzz: running $binary for ${seconds}s over a copy of Fuzz/$target/corpus ($seeds seeds)"
    log=$work/$target.log
    started=$(date +%s)
    status=0
    "$binary" "$work/$target" "${dict[@]}" -max_total_time="$seconds" -max_len="$(max_len "$target")" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/$target-" >"$log" 2>&1 || status=$?
    elapsed=$(( $(date +%s) - started ))
    stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
    line="$target: $(stat number_of_executed_units || true) inputs in ${elapsed}s ($(stat average_exec_per_sec || true)/s),"
    line+=" corpus $seeds -> $(find "$work/$target" -type f | wc -l), $(grep -o 'cov: [0-9]*' "$log" | tail -1 | tr -d :) edges"
    summary+=("$line")
    echo "fuzz: $line"
    if (( status != 0 )); then
        failed+=("$target")
        # The libFuzzer report: the first lines that name the failure, the trap's message, the end of the log.
        grep -m 3 -E 'ERROR: libFuzzer|ERROR: AddressSanitizer|ERROR: LeakSanitizer|Fatal error' "$log" >&2 || true
        tail -n 40 "$log" >&2
        input=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
        echo >&2
        echo "fuzz: $target FAILED (libFuzzer exit status $status) after ${elapsed}s" >&2
        if [[ -n $input ]]; then
            echo "fuzz: the input is $input ($(wc -c <"$input") bytes); to run it again:" >&2
            echo "    $binary $input" >&2
            echo "    (bash Fuzz/run.sh 1 $target builds $binary first; xxd $input shows the bytes)" >&2
        fi
    fi
done

echo "fuzz: summary"
printf '    %s\n' "${summary[@]}"
if (( ${#failed[@]} )); then
    echo "fuzz: FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz: no crash, no failed assertion"
