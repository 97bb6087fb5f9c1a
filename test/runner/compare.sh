#!/bin/sh
# SPDX-License-Identifier: MIT
# phaseloop compare: the columns, the exit status (0 same, 1 diverge,
# 2 errors, 3 the same failure in every mode), the error output, the
# timeout, and the rule it names for the first divergence.
. "${srcdir:-.}/test/runner/lib.sh"
set -e

compare() {
  checks=$((checks + 1))
  set +e
  "$pl" compare "$@" > "$tmp/out" 2> "$tmp/err"
  status=$?
  set -e
}

# The seed example: node10 batches one timer list; the browser runs each
# timer as a task with its own microtask checkpoint, as node11+ do.
compare "$src/examples/js/timers-and-promises.js"
expect_status "seed" 1
expect_in "$tmp/out" "seed" "     node10   | node11   | node     | browser"
expect_in "$tmp/out" "seed" "* 2  timer2   | promise1 | promise1 | promise1   <- first divergence"
expect_in "$tmp/out" "seed" "The modes diverge at line 2."
expect_in "$tmp/out" "seed" "node10 vs node11: both printed \"timer1\" from timeout #1"
expect_in "$tmp/out" "seed" "node10 ran timeout #2 (setTimeout 1 ms), while node11 ran microtask #3 (promise job)"
expect_in "$tmp/out" "seed" "Rule: node10 runs every expired timer of one list (same delay) in one native callback"
expect_in "$tmp/out" "seed" "(Node PR #22842, Node 11.0.0)"
expect_in "$tmp/out" "seed" "node11 vs node: same output."
expect_in "$tmp/out" "seed" "node vs browser: same output."

# Two modes only.
compare --modes=node10,node "$src/examples/js/timers-and-promises.js"
expect_status "seed, two modes" 1
expect_in "$tmp/out" "seed, two modes" "node drains nextTicks and microtasks after each timer"
expect_not_in "$tmp/out" "seed, two modes" "node11"

# Immediates.
compare "$cases/immediates.js"
expect_status "immediates" 1
expect_in "$tmp/out" "immediates" "Rule: node10 runs all the immediates of one check phase in one native callback"

# An unref'd timer: node10 moves it out of its list.
compare --modes=node10,node11 "$src/examples/js/unref-order.js"
expect_status "unref order" 1
expect_in "$tmp/out" "unref order" "node11 ran timeout #2 (setTimeout 5 ms, unref'd)"
expect_in "$tmp/out" "unref order" "Rule: node10 moves an unref'd timer out of its list"

# No divergence.
compare --modes=node10,node11,node "$cases/ticks-and-promises.js"
expect_status "ticks and promises" 0
expect_in "$tmp/out" "ticks and promises" "All 3 modes print the same 8 lines."

# Unhandled rejection: node ends early.
compare --modes=node11,node "$cases/rejection-unhandled.js"
expect_status "rejection" 1
expect_in "$tmp/out" "rejection" "node stopped on an unhandled rejection (Error: nobody catches this)"
expect_in "$tmp/out" "rejection" "Rule: since Node 15 an unhandled promise rejection is an uncaught exception"

# queueMicrotask is missing in node10.
compare --modes=node10,node11 "$cases/queue-microtask.js"
expect_status "queueMicrotask" 1
expect_in "$tmp/out" "queueMicrotask" "Rule: queueMicrotask does not exist in node10"

# A global a later Node added: named with the version that added it.
printf 'const ac = new AbortController();\nconsole.log(typeof ac.signal);\n' > "$tmp/abort.js"
compare --modes=node11,node "$tmp/abort.js"
expect_status "AbortController" 1
expect_in "$tmp/out" "AbortController" "Rule: AbortController does not exist in node11; it came with Node 15."

# A script that fails to parse: every mode fails; the error output is
# part of the comparison, and shown once for the modes that wrote the same
# (Node 20 adds its version line).
printf 'console.log("a");\nlet x = ;\n' > "$tmp/syntax.js"
compare --modes=node10,node11 "$tmp/syntax.js"
expect_status "syntax error, node10 and node11" 3
expect_in "$tmp/out" "syntax error, node10 and node11" "Error output of node10, node11:"
expect_in "$tmp/out" "syntax error, node10 and node11" "SyntaxError"
expect_in "$tmp/out" "syntax error, node10 and node11" "All 2 modes print the same 0 lines, write the same error output and end the same way (exit 1)."
expect_not_in "$tmp/out" "syntax error, node10 and node11" "All 2 modes print the same 0 lines."
compare --modes=node11,node "$tmp/syntax.js"
expect_status "syntax error, node11 and node" 1
expect_in "$tmp/out" "syntax error, node11 and node" "Error output of node11:"
expect_in "$tmp/out" "syntax error, node11 and node" "Error output of node:"
expect_in "$tmp/out" "syntax error, node11 and node" "The modes print the same lines but write different error output."
expect_in "$tmp/out" "syntax error, node11 and node" "node11 vs node: same output, different error output."

# A script that fails on purpose, the same way everywhere.
printf 'console.log("a");\nconsole.error("bad");\nprocess.exitCode = 4;\n' > "$tmp/fails.js"
compare --modes=node10,node11,node "$tmp/fails.js"
expect_status "same failure" 3
expect_in "$tmp/out" "same failure" "Error output of node10, node11, node:"
expect_in "$tmp/out" "same failure" "All 3 modes print the same 1 line, write the same error output and end the same way (exit 4)."

# An uncaught exception in one mode only: the error output differs.
printf 'console.log("a");\nif (typeof queueMicrotask !== "function") throw new Error("old");\n' > "$tmp/throws.js"
compare --modes=node10,node11 "$tmp/throws.js"
expect_status "throws in one mode" 1
expect_in "$tmp/out" "throws in one mode" "Error output of node10:"
expect_in "$tmp/out" "throws in one mode" "Error: old"

# A script that runs away: the modes run at once, each stopped after the
# timeout, and what each printed before it is kept.
printf 'console.log("before");\nfor (;;) {}\n' > "$tmp/runaway.js"
t0=$(date +%s)
compare --timeout=3 "$tmp/runaway.js"
t1=$(date +%s)
expect_status "runaway" 1
expect_in "$tmp/out" "runaway" "  1  before    | before    | before    | before"
expect_in "$tmp/out" "runaway" "timed out"
expect_in "$tmp/out" "runaway" "Not every mode finished within 3 s"
expect_not_in "$tmp/out" "runaway" "All 4 modes"
# One after the other, four modes would take 12 s at least.
checks=$((checks + 1))
[ $((t1 - t0)) -lt 12 ] || fail "runaway: the four modes took $((t1 - t0)) s, as if run one after the other"

# Errors.
compare "$tmp/none.js"
expect_status "missing file" 1  # as run gives it
compare --modes=node10,bogus "$src/examples/js/timers-and-promises.js"
expect_status "bad mode" 2
done_testing
