#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# File requests with and without io_uring: bench/fs_io.c built against
# libuv 1.44.2 (Debian's), libuv 1.53.0 (tools/install-libuv-refs) and
# phaseloop (its uv.h as 1.53, libphaseloop.so), run in five
# configurations, interleaved round by round:
#
#   1.44         Debian's libuv 1.44.2 (threadpool)
#   1.53         libuv 1.53.0 as a program gets it by default (threadpool)
#   1.53+ring    libuv 1.53.0 with the loop asking for io_uring
#                (UV_USE_IO_URING=1, UV_LOOP_USE_IO_URING_SQPOLL: its SQPOLL
#                ring and kernel polling thread)
#   pl           phaseloop behaving as 1.53 (threadpool, as 1.53 by default)
#   pl+ring      phaseloop asked the same way (its ring, docs/io_uring.md)
#   pl+sqpoll    the same with PHASELOOP_IO_URING=sqpoll: phaseloop's ring
#                polled by a kernel thread, as libuv's is
#
# The tests are fs_io.c's: stat the way libuv's benchmark-fs-stat.c does
# (sync, 1 and 16 in flight), 4 KiB random reads with 64 in flight from a
# 64 MiB file in the page cache and from a 1 GiB file dropped from it
# before each run (every read goes to the device), open+close pairs.
# Two tables: requests per second of wall time, and per second of CPU
# time of the process (all its threads: the pool's, the kernel's io_uring
# workers, libuv's SQPOLL thread, which spins while it has work). Each has
# every configuration's median and the ratios
# pl/1.53 (both on the threadpool), pl+ring/1.53+ring (r/r: both on
# io_uring), pl+sqpoll/1.53+ring (sq/r: both on a polled ring) and
# pl+ring/1.53 (r/1.53: phaseloop with io_uring against the newest libuv as
# it runs by default); > 1 is phaseloop ahead.
#
# A third table puts the stats through phaseloop's ring next to the same
# stats made through io_uring alone, with no loop (bench/ring_ceiling.c,
# liburing from Debian, a plain ring): "ring" waits for completions in
# epoll_wait on the ring's descriptor, as a loop's poll phase does,
# "ring+spin" spins on the completion queue instead.
#
# usage: bench/fs-io.sh BUILD [-r N] [--markdown] [TEST...]
# Environment: CC, FS_IO_DIR (where the files go; default BUILD/bench/fs-io,
# on the disk the build is on), LIBUV_153 (default $PHASELOOP_ORACLE_DIR/libuv-1.53, else
# .oracle/libuv-1.53, where tools/install-libuv-refs puts it).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib.sh"
usage="usage: bench/fs-io.sh BUILD [-r N] [--markdown] [TEST...]"
all_tests="stat_sync stat_1 stat_16 read_hot_64 read_cold_64 open_close_16"
rounds=3
markdown=0
build=""
tests=""
while [ $# -gt 0 ]; do
  case "$1" in
    -r) bench_need -r $#; rounds=$2; shift 2 ;;
    --markdown) markdown=1; shift ;;
    -h | --help) echo "$usage"; echo "tests: $all_tests"; exit 0 ;;
    -*) echo "fs-io.sh: unknown option $1" >&2; echo "$usage" >&2; exit 2 ;;
    *) if [ -z "$build" ]; then build=$1; else tests="$tests $1"; fi; shift ;;
  esac
done
[ -n "$build" ] || { echo "$usage" >&2; exit 2; }
bench_positive -r "$rounds"
build=$(cd "$build" && pwd)
tests=${tests:-$all_tests}
say() { echo "fs-io: $*" >&2; }
die() { say "$*"; exit 1; }
[ -f "$build/.libs/libphaseloop.so" ] || die "no $build/.libs/libphaseloop.so: build phaseloop first"

ref153=${LIBUV_153:-${PHASELOOP_ORACLE_DIR:-$top/.oracle}/libuv-1.53}
if [ ! -f "$ref153/cflags" ] && [ -z "${LIBUV_153:-}" ]; then
  "$top/tools/install-libuv-refs" >&2 || die "tools/install-libuv-refs failed"
fi
[ -f "$ref153/cflags" ] || die "no libuv 1.53 in $ref153"

out=$build/bench/fs-io
mkdir -p "$out"
cc=${CC:-cc}
cflags="-O2 -g -Wall"
# shellcheck disable=SC2086
$cc $cflags "$here/fs_io.c" -o "$out/fs_io-1.44" -luv -lpthread || die "building against libuv 1.44 failed"
# shellcheck disable=SC2086
$cc $cflags $(cat "$ref153/cflags") "$here/fs_io.c" -o "$out/fs_io-1.53" $(cat "$ref153/libs") ||
  die "building against libuv 1.53 failed"
# shellcheck disable=SC2086
$cc $cflags -I"$top/include/phaseloop/uv" -DPHASELOOP_UV_VERSION_MINOR=53 -DPHASELOOP_UV_VERSION_PATCH=0 \
  "$here/fs_io.c" -o "$out/fs_io-pl" -L"$build/.libs" -lphaseloop-uv -Wl,-rpath,"$build/.libs" -lpthread ||
  die "building against phaseloop failed"
ceiling=0
if echo '#include <liburing.h>' | $cc -E - > /dev/null 2>&1; then
  # shellcheck disable=SC2086
  $cc $cflags "$here/ring_ceiling.c" -o "$out/ring_ceiling" -luring || die "building bench/ring_ceiling.c failed"
  ceiling=1
else
  say "no liburing headers: the io_uring-alone table is left out"
fi

# The files: a small one to stat and open, 64 MiB to read hot, 1 GiB to
# read cold (written once, kept between runs).
dir=${FS_IO_DIR:-$out}
mkdir -p "$dir"
echo "a file to stat" > "$dir/small"
make_file() {  # PATH MiB
  [ -f "$1" ] && [ "$(stat -c %s "$1")" -eq $(($2 * 1048576)) ] && return 0
  say "writing $1 ($2 MiB)"
  head -c $(($2 * 1048576)) /dev/urandom > "$1.tmp" && mv "$1.tmp" "$1"
}
make_file "$dir/hot" 64
make_file "$dir/cold" 1024

res=$out/results
rm -rf "$res"
mkdir -p "$res"
configs="1.44 1.53 1.53+ring pl pl+ring pl+sqpoll"
run() {  # CFG TEST
  local cfg=$1 t=$2 bin envs="" file log
  case $cfg in
    1.44) bin=$out/fs_io-1.44 ;;
    1.53) bin=$out/fs_io-1.53 ;;
    1.53+ring) bin=$out/fs_io-1.53; envs="FS_IO_RING=1 UV_USE_IO_URING=1" ;;
    pl) bin=$out/fs_io-pl; envs="PHASELOOP_PROFILE=libuv-1.53.0" ;;
    pl+ring) bin=$out/fs_io-pl; envs="PHASELOOP_PROFILE=libuv-1.53.0 FS_IO_RING=1 UV_USE_IO_URING=1" ;;
    pl+sqpoll) bin=$out/fs_io-pl; envs="PHASELOOP_PROFILE=libuv-1.53.0 PHASELOOP_IO_URING=sqpoll" ;;
    ring | ring+spin) bin=$out/ring_ceiling ;;
  esac
  case $t in
    read_hot_*) file=$dir/hot ;;
    read_cold_*) file=$dir/cold ;;
    *) file=$dir/small ;;
  esac
  log=$res/$cfg.$t.log
  # shellcheck disable=SC2086
  local flags=""
  [ "$cfg" = ring+spin ] && flags=--spin
  # shellcheck disable=SC2086
  if ! env -u UV_USE_IO_URING -u PHASELOOP_IO_URING $envs timeout 300 "$bin" $flags "$t" "$file" >> "$log" 2>&1; then
    tail -3 "$log" >&2
    die "$t on $cfg failed (log: $log)"
  fi
  awk -v t="$t" '$1 == t ":" { gsub(/[()]/, "", $7); gsub(/[()]/, "", $12); print t, $7, $12 }' "$log" | tail -1 >> "$res/$cfg"
}
for ((r = 1; r <= rounds; r++)); do
  for t in $tests; do
    say "round $r/$rounds: $t"
    for cfg in $configs; do run "$cfg" "$t"; done
    case $t in stat_1 | stat_16) [ "$ceiling" = 1 ] && run ring "$t" && run ring+spin "$t" ;; esac
  done
done

median() {  # CFG TEST [COLUMN: 2 ops/s (default), 3 ops per CPU second]
  awk -v t="$2" -v c="${3:-2}" '$1 == t { print $c }' "$res/$1" | median_of
}
# table COLUMN TITLE: one table of medians and ratios.
table() {
  local col=$1 title=$2 t a n nr p pr ps
  if [ "$markdown" = 1 ]; then
    echo "| $title | 1.44 | 1.53 | 1.53+ring | pl | pl+ring | pl+sqpoll | pl/1.53 | pl+ring/1.53+ring | pl+sqpoll/1.53+ring | pl+ring/1.53 |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  else
    printf '%-14s %9s %9s %9s %9s %9s %9s %7s %7s %7s %7s\n' "$title" 1.44 1.53 1.53+ring pl pl+ring pl+sqpoll \
      pl/1.53 r/r sq/r r/1.53
  fi
  for t in $tests; do
    a=$(median 1.44 "$t" "$col"); n=$(median 1.53 "$t" "$col"); nr=$(median 1.53+ring "$t" "$col")
    p=$(median pl "$t" "$col"); pr=$(median pl+ring "$t" "$col"); ps=$(median pl+sqpoll "$t" "$col")
    if [ "$markdown" = 1 ]; then
      echo "| $t | $a | $n | $nr | $p | $pr | $ps | $(ratio "$p" "$n") | $(ratio "$pr" "$nr") | $(ratio "$ps" "$nr") | $(ratio "$pr" "$n") |"
    else
      printf '%-14s %9s %9s %9s %9s %9s %9s %7s %7s %7s %7s\n' "$t" "$a" "$n" "$nr" "$p" "$pr" "$ps" \
        "$(ratio "$p" "$n")" "$(ratio "$pr" "$nr")" "$(ratio "$ps" "$nr")" "$(ratio "$pr" "$n")"
    fi
  done
}
table 2 "ops/s"
echo
# The CPU the process used for them, its threads included (the pool's, the
# kernel's io_uring workers and libuv's SQPOLL thread).
table 3 "ops/cpu-s"
echo
# The stats through io_uring alone (bench/ring_ceiling.c) and through
# phaseloop's ring, and the share of the first that the second gets.
ceiling_tests=""
for t in $tests; do
  case $t in stat_1 | stat_16) [ "$ceiling" = 1 ] && ceiling_tests="$ceiling_tests $t" ;; esac
done
if [ -n "$ceiling_tests" ]; then
  if [ "$markdown" = 1 ]; then
    echo "| io_uring alone, ops/s | ring | ring+spin | pl+ring | 1.53 | pl+ring/ring | pl+ring/ring+spin | ring/1.53 | ring+spin/1.53 |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  else
    printf '%-21s %9s %9s %9s %9s %7s %7s %7s %7s\n' "io_uring alone, ops/s" ring ring+spin pl+ring 1.53 \
      pr/r pr/rs r/1.53 rs/1.53
  fi
  for t in $ceiling_tests; do
    c=$(median ring "$t"); cs=$(median ring+spin "$t"); pr=$(median pl+ring "$t"); n=$(median 1.53 "$t")
    if [ "$markdown" = 1 ]; then
      echo "| $t | $c | $cs | $pr | $n | $(ratio "$pr" "$c") | $(ratio "$pr" "$cs") | $(ratio "$c" "$n") | $(ratio "$cs" "$n") |"
    else
      printf '%-21s %9s %9s %9s %9s %7s %7s %7s %7s\n' "$t" "$c" "$cs" "$pr" "$n" "$(ratio "$pr" "$c")" \
        "$(ratio "$pr" "$cs")" "$(ratio "$c" "$n")" "$(ratio "$cs" "$n")"
    fi
  done
  echo
fi
echo "($rounds interleaved rounds, medians; bench/fs_io.c and bench/ring_ceiling.c; ratios > 1: phaseloop ahead)"
