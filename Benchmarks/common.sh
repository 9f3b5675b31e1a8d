# shellcheck shell=bash
# What the benchmark scripts under Benchmarks/ share, once. Source it from a script that has set
# `here` (its own folder) and `root` (the repository), with `set -euo pipefail` already on:
#
#   here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
#   root=$(cd "$here/../.." && pwd)
#   source "$here/../common.sh"
#
# It defines functions only (and `me`, the sourcing script's file name, for messages); nothing runs until called:
#
#   fail MESSAGE...       "me: MESSAGE" on stderr, then exit 1.
#   running PID           true while the process is there and not a zombie.
#   make_work NAME        a fresh temporary folder in $work (bcstream-NAME.XXXXXX under $TMPDIR or /tmp), an empty
#                         `pids` array, and the traps that stop every pid in `pids` and remove $work on any exit:
#                         Ctrl-C exits 130, SIGTERM/SIGHUP 143, a failing command says its line. Add each process
#                         the script starts to `pids`, and take it out once it has been waited for.
#   choose_bcstream       $bcstream: $BCSTREAM_BIN if set (it must be executable), else a release build made into
#                         $root/.build-release. Says so on stderr when it is a debug build (see note_debug_build).
#   note_debug_build BIN [VAR]  when BIN is a debug build (a path through a `debug` folder), a line on stderr
#                         saying that its figures only show the benchmark runs, not how fast bcstream is; VAR
#                         (BCSTREAM_BIN by default) is the variable that chose it.
#   report_machine LINE...  the closing lines: "machine:" and "kernel:", then each LINE, then "load:".
#   lws_version           the installed libwebsockets' version, for a "lws:" line.
#   report_short          with failures listed in the array `short`: each as "FAILED: …" on stderr, then exit 1.

me=$(basename "${BASH_SOURCE[1]}")

fail() { echo "$me: $*" >&2; exit 1; }

# running PID: the process is there and not a zombie (a child that ended stays until it is waited for).
running() {
    local state
    state=$(sed 's/.*) //; s/ .*//' "/proc/$1/stat" 2>/dev/null) || return 1
    [[ -n $state && $state != Z ]]
}

# cleanup: the EXIT trap make_work sets. Stops every process in `pids`, then removes $work.
cleanup() {
    local pid
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    # Never wait on a process that is still there: a signal that reaches a child between fork and exec can be
    # lost, so what has not gone after a few seconds is killed.
    for pid in "${pids[@]}"; do
        for _ in $(seq 30); do
            running "$pid" || break
            sleep 0.1
        done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}

# make_work NAME: $work, `pids` and the traps (see above).
make_work() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/bcstream-$1.XXXXXX")
    pids=()
    trap cleanup EXIT
    # shellcheck disable=SC2016  # expanded when a command fails, not now
    trap 'echo "$me: line $LINENO failed (status $?)" >&2' ERR
    trap 'exit 130' INT
    trap 'exit 143' TERM HUP
}

# note_debug_build BIN: see above. CI runs the benchmarks small on the debug build, to keep them working; a reader
# of its log should not take a debug build's figures (a tenth of a release build's) for bcstream's.
note_debug_build() {
    if [[ /$1/ == */debug/* ]]; then
        {
            echo "$me: note: a debug build ($1):"
            echo "  its figures only show that the benchmark runs; leave ${2:-BCSTREAM_BIN} unset for a release build's."
        } >&2
    fi
}

# choose_bcstream: sets $bcstream (see above).
choose_bcstream() {
    if [[ -n ${BCSTREAM_BIN:-} ]]; then
        bcstream=$BCSTREAM_BIN
        [[ -x $bcstream ]] || fail "BCSTREAM_BIN=$bcstream is not an executable"
        note_debug_build "$bcstream"
    else
        echo "building bcstream (release, .build-release)..." >&2
        # shellcheck disable=SC2154  # root: the sourcing script's
        (cd "$root" && swift build -c release --product bcstream --scratch-path .build-release >&2) \
            || fail "swift build failed"
        bcstream=$root/.build-release/release/bcstream
    fi
}

# report_machine LINE...: the lines that say where a run was made (see above).
report_machine() {
    echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)," \
        "$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)"
    echo "kernel:  $(uname -sr)"
    (($# == 0)) || printf '%s\n' "$@"
    echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min averages at the end)"
}

# lws_version: libwebsockets' version as pkg-config has it (without a trailing "-"), or "(version unknown)".
lws_version() {
    local lws
    lws=$(pkg-config --modversion libwebsockets 2>/dev/null || echo "(version unknown)")
    echo "${lws%-}"
}

# report_short: the end of a run that collected its failures in `short` (see above).
report_short() {
    # shellcheck disable=SC2154  # short: the sourcing script's
    if ((${#short[@]})); then
        echo >&2
        for s in "${short[@]}"; do echo "FAILED: $s" >&2; done
        exit 1
    fi
}
