#!/bin/sh
# SPDX-License-Identifier: MIT
# The JS values the Node layer holds stay rooted: cases/gc-stress.js with
# gc() available runs full collections between steps and must print what
# Node printed.
. "${srcdir:-.}/test/runner/lib.sh"
set -e
for mode in node10 node11 node; do
  run_js "$mode" --expose-gc "$cases/gc-stress.js"
  echo "exit $status" >> "$tmp/out"
  if ! cmp -s "$expected/gc-stress.$mode" "$tmp/out"; then
    fail "gc-stress ($mode)"
    diff -u "$expected/gc-stress.$mode" "$tmp/out" | head -30
  fi
done
done_testing
