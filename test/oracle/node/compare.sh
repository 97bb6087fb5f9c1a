#!/bin/sh
# compare.sh -- check one scenario: real Node vs `phaseloop run --mode=MODE`.
#
# Usage: compare.sh [ignored args...] SCENARIO.js
#
# The scenario's first line, "// oracle: node10 node11 node", lists the modes
# to check. For each mode the real Node of that version (see lib.sh) and
#   $PHASELOOP_BIN run --mode=MODE SCENARIO.js
# run in a fresh scratch directory (the cwd, so relative paths land there),
# each under a timeout; their stdout must be byte-identical and their exit
# status equal (when real Node's first answer differs, it is asked twice
# more and both of those must be phaseloop's). stderr is not compared; it
# is shown when a check fails.
#
# Environment:
#   PHASELOOP_BIN             phaseloop binary (default <repo>/build/phaseloop)
#   PHASELOOP_ORACLE_DIR      where tools/install-oracles put Node 10 and 11
#   PHASELOOP_ORACLE_NODE     the Node >= 20 for --mode=node (default `node`)
#   PHASELOOP_ORACLE_TIMEOUT  seconds per run (default 20)
#   PHASELOOP_ORACLE_KEEP=1   keep the scratch directory and print its path
#   PHASELOOP_ORACLE_CACHE    a directory where real Node's answers are kept
#                             for the next build tree (common.sh,
#                             oracle_run_real; tools/test sets it)
#
# Exit status: 0 every mode matches; 1 a mismatch, a crash or timeout of the
# real Node, a timeout of phaseloop, a bad header, or a missing oracle or
# phaseloop binary (never 77: a missing oracle is a failure). Usable as an
# automake LOG_COMPILER: the scenario is the last argument.

set -u

oracle_lib_dir=$(cd "$(dirname "$0")" && pwd)
. "$oracle_lib_dir/lib.sh"
oracle_scenario "$@"

if ! modes=$(oracle_modes "$scenario"); then
  echo "FAIL $name: $modes"
  exit 1
fi

oracle_phaseloop

oracle_scratch phaseloop-oracle

status=0
checked=
for mode in $modes; do
  if ! node_bin=$(oracle_find "$mode"); then
    echo "FAIL $name [$mode]: $node_bin"
    status=1
    continue
  fi
  version=$(oracle_version "$mode")
  if [ "$mode" = node ]; then
    version=$("$node_bin" --version 2> /dev/null)
    version=${version#v}
  fi
  dir="$work/$mode"
  mkdir -p "$dir/node" "$dir/phaseloop"

  label="node $version $node_bin"  # names its answers in the cache
  oracle_run_real "$label" \
    "$dir/node" "$dir/node.out" "$dir/node.err" "$node_bin" "$scenario"
  node_rc=$?
  if [ "$node_rc" -eq 124 ] || [ "$node_rc" -gt 128 ]; then
    echo "FAIL $name [$mode]: real Node $version $(describe "$node_rc"); the scenario is broken"
    show "node $version stderr" "$dir/node.err"
    status=1
    continue
  fi

  oracle_run "$dir/phaseloop" "$dir/pl.out" "$dir/pl.err" \
    "$phaseloop" run --mode="$mode" "$scenario"
  pl_rc=$?
  # An answer phaseloop does not give, fresh or kept from the other build
  # tree, is asked for twice more (as browser/compare.sh asks Chromium):
  # timing scenarios classify what they measure, and a loaded machine can
  # push one run of real Node over the line. If both later answers are
  # phaseloop's, they are real Node's answer. A phaseloop that is wrong
  # still fails: real Node would have to lose the same race twice in a
  # row to agree with it. A kept answer then gives way to the fresh one.
  if ! cmp -s "$dir/node.out" "$dir/pl.out" || [ "$node_rc" -ne "$pl_rc" ]; then
    agree=0
    for again in 2 3; do
      mkdir -p "$dir/node.$again"
      oracle_run "$dir/node.$again" "$dir/node.$again.out" "$dir/node.$again.err" "$node_bin" "$scenario"
      again_rc=$?
      [ "$again" = 2 ] && second_rc=$again_rc
      cmp -s "$dir/node.$again.out" "$dir/pl.out" && [ "$again_rc" -eq "$pl_rc" ] && agree=$((agree + 1))
    done
    if [ "$agree" -ne 2 ] && [ "$oracle_cached" = 1 ]; then
      cp "$dir/node.2.out" "$dir/node.out"
      cp "$dir/node.2.err" "$dir/node.err"
      node_rc=$second_rc
      oracle_keep "$label" "$dir/node.out" "$dir/node.err" "$node_rc"
    elif [ "$agree" -eq 2 ]; then
      if [ "$oracle_cached" = 1 ]; then first="kept answer"; else first="first run"; fi
      echo "note $name [$mode]: real Node's $first differed, its next two runs matched phaseloop (a race a loaded machine loses):"
      diff -u --label "node-$version/$name.js stdout, $first" \
        --label "node-$version/$name.js stdout, runs 2 and 3" \
        "$dir/node.out" "$dir/pl.out"
      cp "$dir/node.2.out" "$dir/node.out"
      cp "$dir/node.2.err" "$dir/node.err"
      node_rc=$pl_rc
      oracle_keep "$label" "$dir/node.out" "$dir/node.err" "$node_rc"
    fi
  fi

  ok=1
  if ! cmp -s "$dir/node.out" "$dir/pl.out"; then
    ok=0
    echo "FAIL $name [$mode]: stdout differs from real Node $version"
    diff -u --label "node-$version/$name.js stdout" \
      --label "phaseloop --mode=$mode $name.js stdout" \
      "$dir/node.out" "$dir/pl.out"
  fi
  if [ "$node_rc" -ne "$pl_rc" ]; then
    ok=0
    echo "FAIL $name [$mode]: exit status differs: real Node $version $(describe "$node_rc"), phaseloop $(describe "$pl_rc")"
  fi
  if [ "$ok" -eq 0 ]; then
    show "node $version stderr" "$dir/node.err"
    show "phaseloop --mode=$mode stderr" "$dir/pl.err"
    status=1
  else
    checked="$checked $mode"
  fi
done

if [ "$status" -eq 0 ]; then
  echo "PASS $name (matches real Node in:$checked)"
fi
exit $status
