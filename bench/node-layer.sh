#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the Node-layer benchmark: phaseloop's C++ Node layer
# (bench/node_layer) against real Node running the same workloads
# (bench/node/node_layer.js), interleaved, and prints the median rate of each
# and the ratio phaseloop / Node (higher is better for phaseloop).
#
# usage: bench/node-layer.sh PATH/TO/node_layer [-r N] [--markdown]
#   NODE           the Node to compare with (default: node on PATH)
#   PHASELOOP_RUN  if set and executable, also runs the JS file on
#                  `phaseloop run --mode=node` (SpiderMonkey) as a third column
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
cxx=${1:?usage: node-layer.sh PATH/TO/node_layer [-r N] [--markdown]}
shift
rounds=5
markdown=0
while [ $# -gt 0 ]; do
  case "$1" in
    -r) bench_need -r $#; rounds=$2; shift 2 ;;
    -r[0-9]*) rounds=${1#-r}; shift ;;
    --markdown) markdown=1; shift ;;
    *) echo "node-layer.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
bench_positive -r "$rounds"
node=${NODE:-node}
js=$here/node/node_layer.js
run_js=""
if [ -n "${PHASELOOP_RUN:-}" ] && [ -x "$PHASELOOP_RUN" ]; then run_js=$PHASELOOP_RUN; fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for ((i = 0; i < rounds; i++)); do
  "$cxx" >>"$out/pl"
  "$node" "$js" >>"$out/node"
  if [ -n "$run_js" ]; then "$run_js" run --mode=node "$js" >>"$out/js"; fi
done

median() {  # median value of RESULT lines named $2 in file $1
  awk -v n="$2" '$1 == "RESULT" && $2 == n { print $3 }' "$1" | median_of
}

names=$(awk '$1 == "RESULT" { print $2 }' "$out/pl" | awk '!seen[$0]++')
nodever=$("$node" --version)
if [ "$markdown" = 1 ]; then
  hdr="| workload | Node $nodever (ops/s) | phaseloop C++ (ops/s) | ratio |"
  sep="|---|---:|---:|---:|"
  if [ -n "$run_js" ]; then hdr="$hdr phaseloop run (ops/s) | ratio |"; sep="$sep---:|---:|"; fi
  echo "$hdr"; echo "$sep"
else
  printf '%-18s %14s %14s %7s' workload "node $nodever" "phaseloop" ratio
  [ -n "$run_js" ] && printf ' %14s %7s' "phaseloop run" ratio
  echo
fi
for n in $names; do
  a=$(median "$out/node" "$n"); b=$(median "$out/pl" "$n")
  r=$(ratio "$b" "$a")
  c=""; rc=""
  if [ -n "$run_js" ]; then
    c=$(median "$out/js" "$n")
    rc=$(ratio "$c" "$a")
  fi
  if [ "$markdown" = 1 ]; then
    line="| $n | $a | $b | $r |"
    [ -n "$run_js" ] && line="$line $c | $rc |"
    echo "$line"
  else
    printf '%-18s %14s %14s %7s' "$n" "$a" "$b" "$r"
    [ -n "$run_js" ] && printf ' %14s %7s' "$c" "$rc"
    echo
  fi
done
echo
echo "($rounds interleaved rounds, medians; ratio = phaseloop / Node, higher is better for phaseloop)"
