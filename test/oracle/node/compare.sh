#!/bin/sh
# SPDX-License-Identifier: MIT
# compare.sh -- check one scenario: real Node vs `phaseloop run --mode=MODE`.
#
# Usage: compare.sh [ignored args...] SCENARIO.js
#
# The scenario's first line, "// oracle: node10 node11 node", lists the modes
# to check. For each mode the real Node of that version (see lib.sh) and
#   $PHASELOOP_BIN run --mode=MODE --libuv=UV SCENARIO.js
# (UV: that Node's process.versions.uv)
# run in a fresh scratch directory (the cwd, so relative paths land there),
# each under a timeout; their stdout must be byte-identical and their exit
# status equal (when real Node's first answer differs, it is asked twice
# more and both of those must be phaseloop's). stderr is not compared; it
# is shown when a check fails.
#
# Environment:
#   PHASELOOP_BIN             phaseloop binary (default <repo>/build/phaseloop)
#   PHASELOOP_ORACLE_DIR      where tools/install-oracles put Node 10, 11 and 20
#   PHASELOOP_ORACLE_NODE     another Node >= 20 for --mode=node (default: that
#                             Node 20.20.2)
#   PHASELOOP_ORACLE_TIMEOUT  seconds per run (default 20)
#   PHASELOOP_ORACLE_KEEP=1   keep the scratch directory and print its path
#   PHASELOOP_ORACLE_CACHE    a directory where real Node's answers are kept
#                             for the next build tree (common.sh,
#                             oracle_run_real; tools/test sets it)
#
# Exit status: 0 every mode matches; 77 (automake's SKIP) when a real Node
# the scenario needs is not installed (the line says how to install it;
# tools/test installs them all and counts a skip as a failure); 1 a
# mismatch, a crash or timeout of the real Node, a timeout of phaseloop, a
# bad header or a missing phaseloop binary. Usable as an automake
# LOG_COMPILER: the scenario is the last argument.

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

# node_again N: real Node once more, into node.N.out and node.N.err.
node_again() {
  mkdir -p "$dir/node.$1"
  oracle_run "$dir/node.$1" "$dir/node.$1.out" "$dir/node.$1.err" "$node_bin" "$scenario"
}

status=0
checked=
skipped=
for mode in $modes; do
  if ! node_bin=$(oracle_find "$mode"); then
    echo "SKIP $name [$mode]: $node_bin"
    skipped="$skipped $mode"
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

  # The phase order of the libuv that this Node runs on (a Node linked to
  # its system's libuv, as Debian's, has that one's).
  uv=$("$node_bin" -p process.versions.uv 2> /dev/null) || uv=
  oracle_run "$dir/phaseloop" "$dir/pl.out" "$dir/pl.err" \
    "$phaseloop" run --mode="$mode" ${uv:+--libuv="$uv"} "$scenario"
  pl_rc=$?
  # An answer phaseloop does not give, fresh or kept from the other build
  # tree, is asked for twice more (common.sh).
  if ! cmp -s "$dir/node.out" "$dir/pl.out" || [ "$node_rc" -ne "$pl_rc" ]; then
    oracle_ask_twice_more "real Node $version" "$name [$mode]" "$label" \
      "$dir/node.out" "$node_rc" "$dir/pl.out" "$pl_rc" node_again
    node_rc=$oracle_status
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

if [ "$status" -eq 0 ] && [ -n "$skipped" ]; then
  echo "SKIP $name (no real Node for:$skipped${checked:+; matches in:$checked})"
  exit 77
fi
if [ "$status" -eq 0 ]; then
  echo "PASS $name (matches real Node in:$checked)"
fi
exit $status
