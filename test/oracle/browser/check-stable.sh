#!/bin/bash
# SPDX-License-Identifier: MIT
# check-stable.sh -- is every browser oracle scenario deterministic in real
# Chromium?
#
# Usage: test/oracle/browser/check-stable.sh [-n RUNS] [-j JOBS] [-l] [-f] [SCENARIO.js...]
#
# Runs each scenario RUNS times (default 10) in real headless Chromium
# (nothing of phaseloop is involved). A run's result is its stdout plus its
# status; a scenario is unstable when any run's result differs from the
# first (the first difference is shown), and failing when a run fails.
#   -n RUNS  runs per scenario
#   -j JOBS  scenarios checked at once (more load)
#   -l       also load both cores: one busy loop per CPU for the whole check
#   -f       a fresh browser per run (as compare.sh does); the default starts
#            one browser per scenario and gives every run its own browser
#            context, which is a new renderer process (chromium.js --runs)
# Without SCENARIO arguments it checks every test/oracle/browser/[0-9]*.js.
# Prints a Markdown table (scenario, verdict, runs) and a summary line.
# Exit status: 0 when every scenario is stable and passes, 1 otherwise.

set -u

oracle_lib_dir=$(cd "$(dirname "$0")" && pwd)
. "$oracle_lib_dir/lib.sh"

runs=10
jobs=1
load=
fresh=
one=
while getopts "n:j:lfo:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    j) jobs=$OPTARG ;;
    l) load=1 ;;
    f) fresh=1 ;;
    o) one=$OPTARG ;; # internal: check one scenario, result files in $one
    *)
      echo "usage: $0 [-n RUNS] [-j JOBS] [-l] [-f] [SCENARIO.js...]" >&2
      exit 2
      ;;
  esac
done
shift $((OPTIND - 1))

# check_one SCENARIO OUTDIR: write OUTDIR/row, OUTDIR/log, OUTDIR/verdict.
check_one() {
  local scenario=$1 out=$2 name why work i verdict=stable
  name=$(basename "$scenario" .js)
  mkdir -p "$out"
  : > "$out/log"
  if ! why=$(oracle_header "$scenario"); then
    echo "$name: $why" >> "$out/log"
    echo ERROR > "$out/verdict"
    echo "| $name | ERROR | 0 |" > "$out/row"
    return
  fi
  work=$(mktemp -d "${TMPDIR:-/tmp}/phaseloop-browser-stable.XXXXXX")
  # Split into one file per run: run.I holds its lines and "[exit N] ...".
  if [ -n "$fresh" ]; then
    for i in $(seq 1 "$runs"); do
      oracle_chromium_run "$work" "$work/run.$i" "$work/err.$i" "$scenario"
      echo "[exit $?] $(tail -n 1 "$work/err.$i")" >> "$work/run.$i"
    done
  else
    oracle_chromium_run "$work" "$work/all" "$work/err" --runs "$runs" "$scenario"
    local rc=$?
    if [ "$rc" -ne 0 ]; then
      { echo "$name: chromium.js exit $rc"; sed 's/^/  /' "$work/err"; } >> "$out/log"
    fi
    awk -v dir="$work" '/^=== run [0-9]+$/ { f = dir "/run." $3; next } f { print > f }' "$work/all"
  fi
  for i in $(seq 1 "$runs"); do
    if [ ! -f "$work/run.$i" ]; then
      echo "$name: run $i produced no result" >> "$out/log"
      verdict=ERROR
      break
    fi
    if ! tail -n 1 "$work/run.$i" | grep -q '^\[exit 0\]'; then
      { echo "$name: run $i failed:"; sed 's/^/  /' "$work/run.$i"; } >> "$out/log"
      verdict=FAILS
      break
    fi
    if [ "$i" -gt 1 ] && ! cmp -s "$work/run.1" "$work/run.$i"; then
      {
        echo "$name: run $i differs from run 1"
        diff -u --label "run 1" --label "run $i" "$work/run.1" "$work/run.$i"
      } >> "$out/log"
      verdict=UNSTABLE
      break
    fi
  done
  rm -rf "$work"
  echo "$verdict" > "$out/verdict"
  echo "| $name | $verdict | $runs |" > "$out/row"
}

if [ -n "$one" ]; then
  check_one "$1" "$one"
  exit 0
fi

if ! why=$(oracle_check); then
  echo "check-stable.sh: $why" >&2
  exit 1
fi
if [ $# -eq 0 ]; then
  set -- "$oracle_lib_dir"/[0-9]*.js
fi

results=$(mktemp -d "${TMPDIR:-/tmp}/phaseloop-browser-stable-results.XXXXXX") || exit 1
loaders=
stop_load() {
  local pid
  for pid in $loaders; do kill "$pid" 2> /dev/null; done
  loaders=
}
trap 'stop_load; rm -rf "$results"' EXIT
trap 'exit 1' HUP INT TERM

if [ -n "$load" ]; then
  cpus=$(nproc 2> /dev/null || echo 2)
  for _ in $(seq 1 "$cpus"); do
    sh -c 'while :; do :; done' &
    loaders="$loaders $!"
  done
fi

n=$#
i=0
for scenario in "$@"; do
  i=$((i + 1))
  printf '%s\0%s\0' "$(oracle_abs "$scenario")" "$results/$(printf %04d "$i")"
done | xargs -0 -n 2 -P "$jobs" sh -c 'bash "$0" -n "$1" ${2:+-f} -o "$4" "$3"' "$0" "$runs" "$fresh"

stop_load
how="one browser per scenario, a fresh context per run"
[ -n "$fresh" ] && how="a fresh browser per run"
if [ -n "$load" ]; then how="$how, both cores loaded by busy loops"; else how="$how, no extra load"; fi
echo "Stability: each scenario run $runs times in $(oracle_chromium_version) ($how, $jobs at once)."
bad=0
for d in "$results"/*/; do
  if [ -s "$d/log" ]; then
    cat "$d/log"
  fi
  case $(cat "$d/verdict") in
    stable) ;;
    *) bad=$((bad + 1)) ;;
  esac
done

echo
echo "| scenario | verdict | runs |"
echo "|---|---|---|"
cat "$results"/*/row
echo
echo "$n scenarios, $bad unstable or failing."
[ "$bad" -eq 0 ]
