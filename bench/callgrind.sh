#!/bin/sh
# SPDX-License-Identifier: MIT
# Instruction counts (valgrind --tool=callgrind): unlike wall time, they do
# not depend on what else the machine is doing. Runs each benchmark binary
# that bench/run.sh built (bench/build/bench_X.{libuv,phaseloop}) with a
# small workload and prints libuv's count, phaseloop's, and libuv/phaseloop
# (> 1 means phaseloop executes fewer instructions).
# Usage: bench/callgrind.sh [loop_count|many_handles|timers|async|ping_pongs|pump|pound ...]
#        (default: loop_count timers)
# BENCH_BUILD: where run.sh built them (default bench/build).
# many_handles, async and the network benchmarks count only inside uv_run(): their set-up (sockets,
# the dynamic linker) would otherwise weigh as much as the loop's work.
# async counts the 1-worker ping-pong (2,000 round trips; the loop and the
# worker take turns) with phaseloop's spin before a sleep off
# (PHASELOOP_SPIN_US=0): under valgrind, which runs one thread at a time,
# how long a spin lasts is the scheduler's choice, and the count would
# follow it. It counts the wake-up through the eventfd and the async pass.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=${BENCH_BUILD:-$here/build}
[ $# -gt 0 ] || set -- loop_count timers
known=$(bash "$here/run.sh" --help | sed -n 's/^bench names: //p')
for b in "$@"; do
  case " $known " in
    *" $b "*) ;;
    *) echo "callgrind.sh: unknown benchmark '$b' (bench/run.sh builds: $known)" >&2; exit 2 ;;
  esac
done
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed" >&2; exit 1; }
arg_for() {
  case $1 in
    loop_count) echo 200000 ;;
    many_handles) echo 200 ;;
    timers) echo 100000 ;;
    ping_pongs) echo 10000 ;;
    pump) echo 64 ;;
    pound) echo 2000 ;;
    async) echo 2000 1 ;;
    *) echo "" ;;
  esac
}
collect_for() {
  case $1 in
    many_handles | async | ping_pongs | pump | pound) echo --toggle-collect=uv_run ;;
    *) echo "" ;;
  esac
}
env_for() {
  case $1 in
    async) echo PHASELOOP_SPIN_US=0 ;;
    *) echo "" ;;
  esac
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-12s %16s %16s %8s\n' benchmark "libuv Ir" "phaseloop Ir" ratio
for b in "$@"; do
  for v in libuv phaseloop; do
    bin=$dir/bench_$b.$v
    [ -x "$bin" ] || { echo "callgrind.sh: $bin missing: run 'make bench' first" >&2; exit 1; }
    # shellcheck disable=SC2046
    env $(env_for "$b") valgrind --tool=callgrind $(collect_for "$b") --callgrind-out-file="$tmp/out.$v" "$bin" $(arg_for "$b") >/dev/null 2>"$tmp/err.$v"
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/err.$v" > "$tmp/ir.$v"
  done
  l=$(cat "$tmp/ir.libuv")
  p=$(cat "$tmp/ir.phaseloop")
  printf '%-12s %16s %16s %8s\n' "$b" "$l" "$p" "$(awk -v l="$l" -v p="$p" 'BEGIN {printf "%.2f", l / p}')"
done
