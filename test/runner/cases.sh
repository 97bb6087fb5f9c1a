#!/bin/sh
# SPDX-License-Identifier: MIT
# Every cases/NAME.js, in every mode, prints exactly what the real Node of
# that mode printed (expected/NAME.MODE: stdout, then "exit STATUS").
# The expectations come from regen-expected.sh.
. "${srcdir:-.}/test/runner/lib.sh"
set -e
for js in "$cases"/*.js; do
  name=$(basename "$js" .js)
  for mode in node10 node11 node; do
    want=$expected/$name.$mode
    [ -f "$want" ] || { fail "$name: no $want"; continue; }
    run_js "$mode" "$js"
    echo "exit $status" >> "$tmp/out"
    if ! cmp -s "$want" "$tmp/out"; then
      fail "$name ($mode) differs from Node"
      diff -u "$want" "$tmp/out" | head -30
    fi
  done
done
done_testing
