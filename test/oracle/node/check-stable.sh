#!/bin/bash
# SPDX-License-Identifier: MIT
# check-stable.sh -- is every oracle scenario deterministic under real Node,
# and where do the Node versions disagree?
#
# Usage: test/oracle/node/check-stable.sh [-n RUNS] [-j JOBS] [SCENARIO.js...]
#
# Runs each scenario RUNS times (default 10) under every real Node its header
# lists (nothing of phaseloop is involved), with the same scratch-directory
# cwd and timeout as compare.sh. A run's result is its stdout plus its exit
# status; a scenario is unstable when any run's result differs from the first
# (the first difference is shown). Then it prints a Markdown table saying,
# per scenario, whether Node 10 and 11 agree and whether Node 11 and 20 agree
# ("-" when the header leaves one of the two out), and a summary.
# -j runs that many scenarios at once (more load, which helps flush out races).
# Without SCENARIO arguments it checks every test/oracle/node/[0-9]*.js.
# Exit status: 0 when every scenario is stable, 1 otherwise.

set -u

oracle_lib_dir=$(cd "$(dirname "$0")" && pwd)
. "$oracle_lib_dir/lib.sh"

runs=10
jobs=1
one=
while getopts "n:j:o:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    j) jobs=$OPTARG ;;
    o) one=$OPTARG ;; # internal: check one scenario, result files in $one
    *)
      echo "usage: $0 [-n RUNS] [-j JOBS] [SCENARIO.js...]" >&2
      exit 2
      ;;
  esac
done
shift $((OPTIND - 1))

# check_one SCENARIO OUTDIR: run it, write OUTDIR/row (table row), OUTDIR/log
# (details of any problem) and OUTDIR/verdict (stable|UNSTABLE|ERROR).
check_one() {
  local scenario=$1 out=$2 name modes mode bin i work result verdict=stable
  name=$(basename "$scenario" .js)
  mkdir -p "$out"
  : > "$out/log"
  if ! modes=$(oracle_modes "$scenario"); then
    echo "$name: $modes" >> "$out/log"
    echo ERROR > "$out/verdict"
    echo "| $name | ? | ERROR | ? | ? |" > "$out/row"
    return
  fi
  work=$(mktemp -d "${TMPDIR:-/tmp}/phaseloop-stable.XXXXXX")
  for mode in $modes; do
    if ! bin=$(oracle_find "$mode"); then
      echo "$name [$mode]: $bin" >> "$out/log"
      verdict=ERROR
      continue
    fi
    for i in $(seq 1 "$runs"); do
      mkdir -p "$work/$mode.$i"
      oracle_run "$work/$mode.$i" "$work/$mode.$i.out" "$work/$mode.$i.err" "$bin" "$scenario"
      echo "[exit $?]" >> "$work/$mode.$i.out"
      if [ "$i" -gt 1 ] && ! cmp -s "$work/$mode.1.out" "$work/$mode.$i.out"; then
        {
          echo "$name [$mode]: run $i differs from run 1"
          diff -u --label "$mode run 1" --label "$mode run $i" \
            "$work/$mode.1.out" "$work/$mode.$i.out"
        } >> "$out/log"
        verdict=UNSTABLE
        break
      fi
    done
    cp "$work/$mode.1.out" "$out/$mode.result"
    rm -rf "$work/$mode".*
  done
  rmdir "$work" 2> /dev/null || rm -rf "$work"
  echo "$verdict" > "$out/verdict"

  # versus A B: same / differs / "-" when either was not run.
  versus() {
    if [ -f "$out/$1.result" ] && [ -f "$out/$2.result" ]; then
      if cmp -s "$out/$1.result" "$out/$2.result"; then echo same; else echo differs; fi
    else
      echo -
    fi
  }
  echo "| $name | $modes | $verdict | $(versus node10 node11) | $(versus node11 node) |" > "$out/row"
}

if [ -n "$one" ]; then
  check_one "$1" "$one"
  exit 0
fi

if [ $# -eq 0 ]; then
  set -- "$oracle_lib_dir"/[0-9]*.js
fi

results=$(mktemp -d "${TMPDIR:-/tmp}/phaseloop-stable-results.XXXXXX") || exit 1
trap 'rm -rf "$results"' EXIT
trap 'exit 1' HUP INT TERM

n=$#
i=0
for scenario in "$@"; do
  i=$((i + 1))
  printf '%s\0%s\0' "$(oracle_abs "$scenario")" "$results/$(printf %04d "$i")"
done | xargs -0 -n 2 -P "$jobs" sh -c 'bash "$0" -n "$1" -o "$3" "$2"' "$0" "$runs"

echo "Stability: each scenario run $runs times per listed mode."
unstable=0
for d in "$results"/*/; do
  if [ -s "$d/log" ]; then
    cat "$d/log"
  fi
  case $(cat "$d/verdict") in
    stable) ;;
    *) unstable=$((unstable + 1)) ;;
  esac
done

echo
echo "| scenario | modes | stability | node10 vs node11 | node11 vs node20 |"
echo "|---|---|---|---|---|"
cat "$results"/*/row

diff_10_11=$(cat "$results"/*/row | awk -F' \\| ' '$4 == "differs" { sub(/^\| /, "", $1); print $1 }')
diff_11_20=$(cat "$results"/*/row | awk -F' \\| ' '$5 == "differs |" { sub(/^\| /, "", $1); print $1 }')
echo
echo "$n scenarios, $unstable unstable or failing."
echo "node10 vs node11 differ in $(echo "$diff_10_11" | grep -c .):" $diff_10_11
echo "node11 vs node20 differ in $(echo "$diff_11_20" | grep -c .):" $diff_11_20
[ "$unstable" -eq 0 ]
