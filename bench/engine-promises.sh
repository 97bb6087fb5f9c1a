#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How fast each JavaScript engine runs a chain of promise reactions
# (bench/node/promise_chain.js), to tell what `phaseloop run` costs from
# what SpiderMonkey itself costs: real Node (V8), SpiderMonkey 102's own
# shell (js102, from libmozjs-102-dev) with and without its async stack
# capture, and `phaseloop run` in node mode (which captures async stacks
# for scripts that use async functions) and node11 mode (which never does).
# Interleaved rounds; prints the median rate of each.
#
# usage: bench/engine-promises.sh PATH/TO/phaseloop [-r N] [--markdown]
#   NODE  the Node to compare with (default: node on PATH)
#   JS    SpiderMonkey's shell (default: js102 on PATH; skipped if absent)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
pl=${1:?usage: engine-promises.sh PATH/TO/phaseloop [-r N] [--markdown]}
shift
rounds=3
markdown=0
while [ $# -gt 0 ]; do
  case "$1" in
    -r) bench_need -r $#; rounds=$2; shift 2 ;;
    --markdown) markdown=1; shift ;;
    *) echo "engine-promises.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
bench_positive -r "$rounds"
node=${NODE:-node}
jsshell=${JS:-$(command -v js102 || true)}
js=$here/node/promise_chain.js

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
rate() { awk '$1 == "RESULT" { print $3 }'; }
for ((i = 0; i < rounds; i++)); do
  "$node" "$js" | rate >>"$out/node"
  if [ -n "$jsshell" ]; then
    "$jsshell" "$js" | rate >>"$out/js"
    "$jsshell" --no-async-stacks "$js" | rate >>"$out/js-nostacks"
  fi
  "$pl" run --mode=node "$js" | rate >>"$out/pl-node"
  "$pl" run --mode=node11 "$js" | rate >>"$out/pl-node11"
done

median() { median_of < "$1"; }
row() {  # label file
  [ -s "$out/$2" ] || return 0
  if [ "$markdown" = 1 ]; then printf '| %s | %s |\n' "$1" "$(median "$out/$2")"
  else printf '%-52s %12s\n' "$1" "$(median "$out/$2")"; fi
}
if [ "$markdown" = 1 ]; then echo "| engine | promise reactions/s |"; echo "|---|---:|"; fi
row "Node $("$node" --version) (V8)" node
[ -n "$jsshell" ] && row "$(basename "$jsshell") shell (SpiderMonkey)" js
[ -n "$jsshell" ] && row "$(basename "$jsshell") shell, --no-async-stacks" js-nostacks
row "phaseloop run --mode=node (no async function: no async stacks)" pl-node
row "phaseloop run --mode=node11" pl-node11
[ "$markdown" = 1 ] && echo
echo "($rounds interleaved rounds, medians of bench/node/promise_chain.js)"
