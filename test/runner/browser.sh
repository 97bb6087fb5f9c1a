#!/bin/sh
# SPDX-License-Identifier: MIT
# --mode=browser: the window's globals, errors reported as a page reports
# them (window.onerror, "Uncaught ..." on stderr, the run goes on, status 1
# at the end), unhandled rejections at the end of a microtask checkpoint,
# the bindings' TypeErrors, timers, MessageChannel, idle callbacks and
# animation frames, the --trace view, the browser column of `compare`, and
# runs that end by themselves. The scripts are browser/NAME.js.
. "${srcdir:-.}/test/runner/lib.sh"
set -e
# Absolute and without symlinks: the runner names a script by its realpath
# in error locations and window.onerror's source.
dir=$(cd "$src/test/runner/browser" && pwd -P)

# run_browser FILE [ARGS...]: run_js for the browser, under `timeout 20`,
# for scripts that must end by themselves (status 124 when they hang).
run_browser() {
  checks=$((checks + 1))
  set +e
  timeout 20 "$pl" run --mode=browser "$@" > "$tmp/out" 2> "$tmp/err"
  status=$?
  set -e
  check_sanitizers "browser $*"
}

# ---- 1. globals ----------------------------------------------------------------
run_js browser "$dir/globals.js"
expect_status "globals" 0
expect_stdout "globals" "window true true
node undefined undefined undefined
queueMicrotask function
now number true true"
expect_not_in "$tmp/err" "globals" "Uncaught"

# ---- 2. errors -------------------------------------------------------------------
# throw-in-timer.js, onerror.js, syntax-error.js and string-handler-throws.js
# start with no comment line: the checks below depend on their line numbers.

# A throw in a timer is reported with its line (3); the run goes on.
run_js browser "$dir/throw-in-timer.js"
expect_status "uncaught in a timer" 1
expect_stdout "uncaught in a timer" "before
after"
expect_in "$tmp/err" "uncaught in a timer" "$dir/throw-in-timer.js:3"
expect_in "$tmp/err" "uncaught in a timer" "  throw new Error('boom');"
expect_in "$tmp/err" "uncaught in a timer" "Uncaught Error: boom"

# window.onerror returning true handles the error.
run_js browser "$dir/onerror.js"
expect_status "onerror returns true" 0
expect_stdout "onerror returns true" "message Uncaught Error: boom
source $dir/onerror.js
lineno 9 colno number true
error true boom true
after"
checks=$((checks + 1))
[ ! -s "$tmp/err" ] || fail "onerror returns true: stderr is '$(head -c 300 "$tmp/err")'"

# Returning false, or nothing, does not cancel the report.
for ret in "return false;" ""; do
  sed "s/  return true;/  $ret/" "$dir/onerror.js" > "$tmp/onerror2.js"
  run_js browser "$tmp/onerror2.js"
  expect_status "onerror '$ret'" 1
  expect_in "$tmp/out" "onerror '$ret'" "message Uncaught Error: boom"
  expect_in "$tmp/out" "onerror '$ret'" "after"
  expect_in "$tmp/err" "onerror '$ret'" "$tmp/onerror2.js:9"
  expect_in "$tmp/err" "onerror '$ret'" "Uncaught Error: boom"
done

# A syntax error: nothing runs; reported with its line (2).
run_js browser "$dir/syntax-error.js"
expect_status "syntax error" 1
expect_stdout "syntax error" ""
expect_in "$tmp/err" "syntax error" "$dir/syntax-error.js:2"
expect_in "$tmp/err" "syntax error" "let x = ;"
expect_in "$tmp/err" "syntax error" "Uncaught SyntaxError: "

run_js browser "$dir/unhandled-rejection.js"
expect_status "unhandled rejection" 1
expect_stdout "unhandled rejection" "before
after"
expect_in "$tmp/err" "unhandled rejection" "Uncaught (in promise)"
expect_in "$tmp/err" "unhandled rejection" "nobody catches this"

# Handled before the checkpoint ends: not reported.
run_js browser "$dir/handled-rejections.js"
expect_status "handled rejections" 0
expect_stdout "handled rejections" "caught sync x
caught in a microtask y
caught in a timer checkpoint 42"
expect_not_in "$tmp/err" "handled rejections" "Uncaught"

# A string handler's error names where that code is, not an unrelated line
# of the file (the string is compiled as line 1 of the script's file, so
# that line must be code, not a comment).
run_js browser "$dir/string-handler-throws.js"
expect_status "string handler throws" 1
expect_stdout "string handler throws" "line one of the file"
expect_in "$tmp/err" "string handler throws" "Uncaught Error: from a string"
expect_not_in "$tmp/err" "string handler throws" "console.log('line one of the file');"

# ---- 3. bad arguments ------------------------------------------------------------
run_js browser "$dir/bad-arguments.js"
expect_status "bad arguments" 0
expect_stdout "bad arguments" "requestAnimationFrame(1) -> TypeError: Failed to execute 'requestAnimationFrame' on 'Window': parameter 1 is not of type 'Function'.
requestIdleCallback('x') -> TypeError: Failed to execute 'requestIdleCallback' on 'Window': parameter 1 is not of type 'Function'.
queueMicrotask(5) -> TypeError: Failed to execute 'queueMicrotask' on 'Window': parameter 1 is not of type 'Function'.
MessageChannel() -> TypeError: Failed to construct 'MessageChannel': Please use the 'new' operator, this DOM object constructor cannot be called as a function.
postMessage() -> TypeError: Failed to execute 'postMessage' on 'MessagePort': 1 argument required, but only 0 present.
requestIdleCallback(f, 5) -> TypeError: Failed to execute 'requestIdleCallback' on 'Window': The provided value is not of type 'IdleRequestOptions'."

# ---- 4. timers --------------------------------------------------------------------
run_browser "$dir/timers.js"
expect_status "timers" 0
expect_stdout "timers" "ids true 3
from string
args x 2 1
cleared itself and went on
tick 1
tick 2
ticks at 60 ms 2"

# ---- 5. MessageChannel --------------------------------------------------------------
run_browser "$dir/structured-clone.js"
expect_status "structured clone" 0
expect_stdout "structured clone" "posting a function threw
a 1 extra undefined
list 3 true
map true 1,2
copy true true true"

run_browser "$dir/post-after-close.js"
expect_status "post after close" 0
expect_stdout "post after close" "posted"

run_browser "$dir/port-never-started.js"
expect_status "port never started" 0
expect_stdout "port never started" "posted
timer"

run_browser "$dir/port-start-later.js"
expect_status "start() later" 0
expect_stdout "start() later" "started
got one
got two"

# ---- 6. idle callbacks and animation frames --------------------------------------
run_browser "$dir/idle-callback.js"
expect_status "idle callback" 0
expect_stdout "idle callback" "idle number true true false"

run_browser "$dir/animation-frames.js"
expect_status "animation frames" 0
expect_stdout "animation frames" "frame number true 2 true
next frame true"

# ---- 7. --trace ----------------------------------------------------------------------
# trace_run NAME: runs browser/NAME.js with --trace; times are dropped from $tmp/out.
trace_run() {
  run_browser --trace "$dir/$1.js"
  sed -e 's/ @[0-9.]*ms$//' -e 's/^\(# idle period until\) [0-9.]*ms$/\1/' "$tmp/out" > "$tmp/stripped"
  mv "$tmp/stripped" "$tmp/out"
}

trace_run trace-timer
expect_status "trace: timer" 0
expect_stdout "trace: timer" "# task (networking): script ($dir/trace-timer.js)
script
# task (timer): setTimeout #1 (0 ms, nesting level 1)
timer
#   microtask checkpoint
#     microtask: promise job #1
promise"

trace_run trace-frame
expect_status "trace: frames" 0
expect_stdout "trace: frames" "# task (networking): script ($dir/trace-frame.js)
# update the rendering
#   animation frame callback: requestAnimationFrame #1
frame 1
#   microtask checkpoint
#     microtask: promise job #1
promise
#   animation frame callback: requestAnimationFrame #2
frame 2"

trace_run trace-idle
expect_status "trace: idle" 0
expect_stdout "trace: idle" "# task (networking): script ($dir/trace-idle.js)
# idle period until
# idle callback: requestIdleCallback #1
idle"

trace_run trace-message
expect_status "trace: message" 0
expect_stdout "trace: message" "# task (networking): script ($dir/trace-message.js)
# task (posted-message): message (to port1)
message hi"

# Without the trace lines, the output is the plain run's.
run_browser --trace "$dir/trace-frame.js"
grep -v '^#' "$tmp/out" > "$tmp/traced"
run_browser "$dir/trace-frame.js"
cmp -s "$tmp/traced" "$tmp/out" || fail "trace: the script's own lines changed"

# ---- 8. compare ------------------------------------------------------------------------
compare() {
  checks=$((checks + 1))
  set +e
  timeout 60 "$pl" compare "$@" > "$tmp/out" 2> "$tmp/err"
  status=$?
  set -e
}

# The wait makes both timers due when node10 first looks at their list
# (Node reads a fresh time for each setTimeout, so a millisecond boundary
# between the two calls can leave the second one not yet due, as on real
# Node 10; examples/js/timers-and-promises.js waits for the same reason).
compare "$dir/compare-timers.js"
expect_status "compare: timers" 1
expect_in "$tmp/out" "compare: timers" "     node10   | node11   | node     | browser"
expect_in "$tmp/out" "compare: timers" "* 2  timer2   | promise1 | promise1 | promise1   <- first divergence"
expect_in "$tmp/out" "compare: timers" "node vs browser: same output."

compare --modes=node,browser "$dir/compare-timers.js"
expect_status "compare: two modes" 0
expect_in "$tmp/out" "compare: two modes" "     node     | browser"
expect_in "$tmp/out" "compare: two modes" "All 2 modes print the same 3 lines."
expect_not_in "$tmp/out" "compare: two modes" "node10"
expect_not_in "$tmp/out" "compare: two modes" "node11"

compare "$dir/compare-raf.js"
expect_status "compare: rAF" 1
expect_in "$tmp/out" "compare: rAF" "* 2         |        |        | frame   <- first divergence"
expect_in "$tmp/out" "compare: rAF" "     exit 1 | exit 1 | exit 1 | exit 0"
expect_in "$tmp/out" "compare: rAF" "requestAnimationFrame belongs to the browser; Node has none."

compare "$dir/compare-immediate.js"
expect_status "compare: setImmediate" 1
expect_in "$tmp/out" "compare: setImmediate" "exit 0    | exit 0    | exit 0    | exit 1"
expect_in "$tmp/out" "compare: setImmediate" "setImmediate is Node's; a browser window has none."

# A line printed by a promise job after a timer task: the browser's step
# is named as a page step, not as a Node phase.
compare --modes=node,browser "$dir/compare-checkpoint.js"
expect_status "compare: checkpoint step" 1
expect_in "$tmp/out" "compare: checkpoint step" "browser printed \"b\" from promise job #1"
expect_not_in "$tmp/out" "compare: checkpoint step" "microtask-checkpoint phase of iteration"
expect_in "$tmp/out" "compare: checkpoint step" "from promise job #1 in task 2 of the page"

compare --modes=browser,bogus "$dir/compare-timers.js"
expect_status "compare: bad mode" 2

# ---- 9. teardown: an open, started port does not keep the page alive -----------------
run_browser "$dir/open-port.js"
expect_status "open port" 0
expect_stdout "open port" "open
timer"

done_testing
