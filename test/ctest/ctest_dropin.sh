#!/bin/sh
# SPDX-License-Identifier: MIT
# ctest_dropin.sh -- runs Debian's ctest (dynamically linked against
# libuv.so.1: it spawns tests, reads their output through pipes, times them
# out with timers, watches signals) on the CTest project in project/, once
# on the system's libuv and once on phaseloop's drop-in libuv.so.1, and
# requires the same report: every test's result and captured output, and
# ctest's exit status. Timings are blanked out and the report is sorted by
# test, since with -j tests finish in any order.
#
# The drop-in is found in $DIFF_DROPIN_DIR (set by `make check`). A test of
# the project records which libuv.so.1 its parent, ctest, has mapped, so the
# script checks that each run really used the library it meant to.
#
# Exit status: 0 same report, 1 different or broken, 77 (skip) without
# cmake/ctest, a ctest linked against libuv.so.1, or a drop-in library.
set -u

here=$(cd "$(dirname "$0")" && pwd)
dropin_dir=${DIFF_DROPIN_DIR:-}

skip() {
  echo "SKIP ctest drop-in: $1"
  exit 77
}

command -v cmake > /dev/null 2>&1 || skip "no cmake"
ctest_bin=$(command -v ctest 2>/dev/null) || skip "no ctest"
ldd "$ctest_bin" 2>/dev/null | grep -q 'libuv\.so\.1' || skip "$ctest_bin is not linked against libuv.so.1"
[ -n "$dropin_dir" ] && [ -e "$dropin_dir/libuv.so.1" ] || skip "no drop-in libuv.so.1 (DIFF_DROPIN_DIR)"
dropin_dir=$(cd "$dropin_dir" && pwd)
dropin_lib=$(readlink -f "$dropin_dir/libuv.so.1")

# A drop-in built with the sanitizers (--enable-sanitizers) leaves their
# runtimes to the executable, which an uninstrumented ctest does not bring:
# preload them (AddressSanitizer's must come first). Leak reports are off
# for that run: they would be about ctest and the tests' tools (which
# inherit the preload), not about the library.
preload=
undefined=$(nm -D --undefined-only "$dropin_lib" 2>/dev/null)
for rt in asan ubsan; do
  case $undefined in
    *__${rt}_*)
      lib=$(${CC:-cc} -print-file-name="lib$rt.so" 2>/dev/null)
      case $lib in /*) ;; *) skip "the drop-in needs lib$rt.so, which ${CC:-cc} does not know" ;; esac
      preload="${preload:+$preload }$lib"
      ;;
  esac
done

work=$(mktemp -d "${TMPDIR:-/tmp}/pl-ctest.XXXXXX") || exit 1
trap '[ -n "${CTEST_KEEP:-}" ] || rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM

if ! cmake -S "$here/project" -B "$work/build" > "$work/cmake.log" 2>&1; then
  echo "FAIL ctest drop-in: cmake could not configure the project:"
  cat "$work/cmake.log"
  exit 1
fi

# One report line per line of ctest's output, keyed by the test it belongs
# to so that sorting groups each test's lines (in their order); "Start"
# lines, run counters, times and empty lines are dropped. (ctest prints an
# empty line before its summary: keyed to whichever test finished last, it
# made the reports differ when a slow machine finished the tests in
# another order.)
normalize() {
  awk '
    BEGIN { cur = "~0-head" }
    /^ *Start +[0-9]+: / { next }
    /^$/ { next }
    { l = $0 }
    /^ *[0-9]+\/[0-9]+ Test +#[0-9]+: / {
      sub(/^ *[0-9]+\/[0-9]+ +/, "", l)
      cur = l
      sub(/^Test +#[0-9]+: /, "", cur)
      sub(/ .*/, "", cur)
      n = 0
    }
    /^[0-9]+% tests passed/ { cur = "~1-summary" }
    {
      gsub(/ +[0-9]+\.[0-9]+ sec/, " N sec", l)
      printf "%s\t%06d\t%s\n", cur, ++n, l
    }
  ' "$1" | LC_ALL=C sort -t '	' -k1,1 -k2,2n | cut -f3-
}

# run LABEL [env-assignments...]
run() {
  label=$1
  shift
  rm -f "$work/build/libuv-loaded.txt"
  (cd "$work/build" && env "$@" "$ctest_bin" -j4 --output-on-failure --timeout 60) \
    > "$work/out.$label" 2>&1
  echo "exit status $?" >> "$work/out.$label"
  normalize "$work/out.$label" > "$work/report.$label"
  loaded=$(cat "$work/build/libuv-loaded.txt" 2>/dev/null)
  echo "$label: ctest ran on ${loaded:-an unknown libuv}"
}

status=0
run libuv
system_loaded=$loaded
run dropin "LD_LIBRARY_PATH=$dropin_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  ${preload:+"LD_PRELOAD=$preload"} ${preload:+"ASAN_OPTIONS=detect_leaks=0"} \
  PHASELOOP_PROFILE=libuv-1.44

if [ -z "$system_loaded" ] || [ "$(readlink -f "$system_loaded")" = "$dropin_lib" ]; then
  echo "FAIL ctest drop-in: the reference run did not use the system's libuv"
  status=1
fi
if [ "$(readlink -f "${loaded:-/nonexistent}")" != "$dropin_lib" ]; then
  echo "FAIL ctest drop-in: the drop-in run did not load $dropin_lib"
  status=1
fi
if ! grep -q 'Test *#[0-9]*: big_output_pass .*Passed' "$work/out.libuv"; then
  echo "FAIL ctest drop-in: the reference run is not as expected:"
  cat "$work/out.libuv"
  status=1
fi
if ! cmp -s "$work/report.libuv" "$work/report.dropin"; then
  echo "FAIL ctest drop-in: the reports differ"
  diff -u --label libuv --label drop-in "$work/report.libuv" "$work/report.dropin" | head -100
  echo "--- drop-in output (head) ---"
  head -60 "$work/out.dropin"
  status=1
fi
[ "$status" -eq 0 ] && echo "PASS ctest drop-in: $(grep -c 'Test *#' "$work/report.libuv") tests, same report"
exit $status
