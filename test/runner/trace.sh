#!/bin/sh
# SPDX-License-Identifier: MIT
# --trace: the script's lines stay as they are, every trace line starts
# with '#', and the trace of trace/phases.js in each mode is the one in
# trace/phases.MODE (loop times replaced by @Tms).
. "${srcdir:-.}/test/runner/lib.sh"
set -e
dir=$src/test/runner/trace
for mode in node10 node11 node; do
  checks=$((checks + 1))
  "$pl" run --trace --mode="$mode" "$dir/phases.js" > "$tmp/raw"
  sed 's/ @[0-9]*ms/ @Tms/' "$tmp/raw" > "$tmp/out"
  if ! cmp -s "$dir/phases.$mode" "$tmp/out"; then
    fail "trace of phases.js ($mode)"
    diff -u "$dir/phases.$mode" "$tmp/out" | head -40
  fi
  # Without the trace lines, the output is the plain run's.
  run_js "$mode" "$dir/phases.js"
  grep -v '^#' "$tmp/raw" > "$tmp/script"
  cmp -s "$tmp/script" "$tmp/out" || fail "trace ($mode): the script's own lines changed"
done

# The phase names appear in each profile's order.
"$pl" run --trace --mode=node10 "$dir/phases.js" > "$tmp/out"
expect_in "$tmp/out" "node10 trace" "# [iter 1 @"
expect_in "$tmp/out" "node10 trace" "#     native callback \"timers\""
expect_in "$tmp/out" "node10 trace" "#       timeout #2 (setTimeout 1 ms)"
"$pl" run --trace --mode=node "$dir/phases.js" > "$tmp/out"
expect_in "$tmp/out" "node trace" "# [before the loop @"
expect_in "$tmp/out" "node trace" "closing timers: nothing ran"

# A line printed without a newline is ended before a trace line.
printf 'process.stdout.write("no newline");\nsetTimeout(() => console.log("later"), 1);\n' > "$tmp/partial.js"
"$pl" run --trace "$tmp/partial.js" > "$tmp/out"
checks=$((checks + 1))
grep -q '^no newline$' "$tmp/out" || fail "partial line: $(cat "$tmp/out")"
done_testing
