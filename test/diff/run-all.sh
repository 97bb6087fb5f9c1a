#!/bin/sh
# SPDX-License-Identifier: MIT
# run-all.sh -- run compare.sh on every scenario in this directory.
#
# Usage: run-all.sh [-v] [-j JOBS] [PATTERN]
#   -v        show compare.sh output for passing scenarios too
#   -j JOBS   run up to JOBS scenarios in parallel (default 1)
#   PATTERN   only scenarios whose file name contains PATTERN
# All DIFF_* variables understood by compare.sh are passed through.
# Prints "N passed, M failed" (plus skipped, if any) and exits non-zero
# when something failed.

set -u

here=$(cd "$(dirname "$0")" && pwd)
verbose=0
jobs=1
while [ $# -gt 0 ]; do
  case $1 in
    -v) verbose=1; shift ;;
    -j) jobs=$2; shift 2 ;;
    -j*) jobs=${1#-j}; shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
pattern=${1:-}

results=$(mktemp -d "${TMPDIR:-/tmp}/phaseloop-runall.XXXXXX") || exit 1
trap 'rm -rf "$results"' EXIT
trap 'exit 1' HUP INT TERM

run_one() {
  scenario=$1
  name=$(basename "$scenario" .c)
  "$here/compare.sh" "$scenario" > "$results/$name.log" 2>&1
  echo $? > "$results/$name.rc"
}

count=0
for scenario in "$here"/[0-9][0-9][0-9]_*.c; do
  [ -f "$scenario" ] || continue
  case $(basename "$scenario") in
    *"$pattern"*) ;;
    *) continue ;;
  esac
  count=$((count + 1))
  if [ "$jobs" -gt 1 ]; then
    run_one "$scenario" &
    if [ $((count % jobs)) -eq 0 ]; then
      wait
    fi
  else
    run_one "$scenario"
  fi
done
wait

passed=0
failed=0
skipped=0
for scenario in "$here"/[0-9][0-9][0-9]_*.c; do
  name=$(basename "$scenario" .c)
  [ -f "$results/$name.rc" ] || continue
  rc=$(cat "$results/$name.rc")
  if [ "$rc" -eq 0 ]; then
    passed=$((passed + 1))
    if [ "$verbose" -eq 1 ]; then
      cat "$results/$name.log"
    else
      echo "PASS $name"
    fi
  elif [ "$rc" -eq 77 ]; then
    skipped=$((skipped + 1))
    echo "SKIP $name"
  else
    failed=$((failed + 1))
    echo "FAIL $name"
    sed 's/^/    /' "$results/$name.log"
  fi
done

if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
