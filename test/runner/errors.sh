#!/bin/sh
# SPDX-License-Identifier: MIT
# Uncaught exceptions, syntax errors, unhandled rejections, process.exit
# and exitCode, a missing file, bad usage: stderr names FILE:LINE and shows
# the source line and the error, stdout is flushed first, and the exit
# status is Node's.
. "${srcdir:-.}/test/runner/lib.sh"
set -e

cat > "$tmp/throw.js" <<'JS'
console.log('before');
function f() {
  throw new Error('boom');
}
setTimeout(f, 1);
JS
for mode in node10 node11 node; do
  run_js "$mode" "$tmp/throw.js"
  expect_status "uncaught ($mode)" 1
  expect_stdout "uncaught ($mode)" "before"
  expect_in "$tmp/err" "uncaught ($mode)" "$tmp/throw.js:3"
  expect_in "$tmp/err" "uncaught ($mode)" "  throw new Error('boom');"
  expect_in "$tmp/err" "uncaught ($mode)" "Error: boom"
  expect_in "$tmp/err" "uncaught ($mode)" "    at f ($tmp/throw.js:3:"
done
expect_in "$tmp/err" "uncaught (node)" "Node.js v20"

# Node 12+ shows the async functions awaiting the one that threw; the
# script says `async`, so node mode captures async stacks.
cat > "$tmp/async.js" <<'JS'
async function inner() { await null; throw new Error('deep'); }
async function outer() { await inner(); }
outer();
JS
run_js node "$tmp/async.js"
expect_status "async stack (node)" 1
expect_in "$tmp/err" "async stack (node)" "    at inner ($tmp/async.js:1:"
expect_in "$tmp/err" "async stack (node)" "    at async outer ($tmp/async.js:2:"
run_js node11 "$tmp/async.js"
expect_not_in "$tmp/err" "async stack (node11)" "at async outer"

# The loop runs under a script frame of the runner's own (script_host::
# under_frame); no stack the script sees shows it, in any mode. The timer
# that throws is set only once the timer and the immediate have both run:
# set up front, a slow first iteration (sanitizers, a loaded machine) found
# it expired next to the 1 ms one, and it ended the program before the
# check phase.
cat > "$tmp/stacks.js" <<'JS'
function where(what) {
  const lines = new Error(what).stack.split('\n').filter((l) => l !== '');
  console.log(what + ': ' + lines.length + ' ' + lines[0].split('@')[0]);
}
where('main');
let ran = 0;
function oneRan() { if (++ran === 2) setTimeout(last, 0); }
function last() { throw new Error('end'); }
setTimeout(function inTimer() { where('timer'); oneRan(); }, 1);
setImmediate(function inImmediate() { where('immediate'); oneRan(); });
process.nextTick(function inTick() { where('tick'); });
JS
for mode in node10 node11 node browser; do
  run_js "$mode" "$tmp/stacks.js"
  expect_not_in "$tmp/out" "stacks ($mode)" "phaseloop:frame"
  expect_not_in "$tmp/err" "stacks ($mode)" "phaseloop:frame"
  if [ "$mode" != browser ]; then
    expect_in "$tmp/out" "stacks ($mode)" "timer: 2 where"
    expect_in "$tmp/out" "stacks ($mode)" "immediate: 2 where"
    expect_in "$tmp/err" "stacks ($mode)" "    at last ($tmp/stacks.js:8:"
  fi
done

cat > "$tmp/syntax.js" <<'JS'
console.log('never');
let x = ;
JS
run_js node "$tmp/syntax.js"
expect_status "syntax error" 1
expect_stdout "syntax error" ""
expect_in "$tmp/err" "syntax error" "$tmp/syntax.js:2"
expect_in "$tmp/err" "syntax error" "let x = ;"
expect_in "$tmp/err" "syntax error" "        ^"
expect_in "$tmp/err" "syntax error" "SyntaxError: "

printf 'throw 42;\n' > "$tmp/throw42.js"
run_js node10 "$tmp/throw42.js"
expect_status "throw 42" 1
expect_in "$tmp/err" "throw 42" "$tmp/throw42.js:1"
expect_in "$tmp/err" "throw 42" "42"

cat > "$tmp/tick-throws.js" <<'JS'
console.log('a');
process.nextTick(() => { throw new TypeError('in a tick'); });
setTimeout(() => console.log('never'), 1);
JS
run_js node11 "$tmp/tick-throws.js"
expect_status "throw in a tick" 1
expect_stdout "throw in a tick" "a"
expect_in "$tmp/err" "throw in a tick" "TypeError: in a tick"

cat > "$tmp/exit.js" <<'JS'
console.log('a');
setTimeout(() => console.log('never'), 10);
Promise.resolve().then(() => console.log('never either'));
process.stdout.write('partial');
process.exit(7);
console.log('not reached');
JS
run_js node "$tmp/exit.js"
expect_status "process.exit(7)" 7
printf 'a\npartial' > "$tmp/want"
cmp -s "$tmp/want" "$tmp/out" || fail "process.exit(7): stdout is '$(cat "$tmp/out")'"

printf 'console.log(1);\nprocess.exitCode = 3;\n' > "$tmp/exitcode.js"
run_js node10 "$tmp/exitcode.js"
expect_status "process.exitCode" 3
expect_stdout "process.exitCode" "1"

printf 'process.exitCode = 4;\nsetTimeout(() => process.exit(), 1);\n' > "$tmp/exit-default.js"
run_js node "$tmp/exit-default.js"
expect_status "process.exit() uses exitCode" 4

cat > "$tmp/reject.js" <<'JS'
console.log('before');
Promise.reject(new Error('rejected'));
setTimeout(() => console.log('after'), 1);
JS
for mode in node10 node11; do
  run_js "$mode" "$tmp/reject.js"
  expect_status "unhandled rejection ($mode)" 0
  expect_stdout "unhandled rejection ($mode)" "before
after"
  expect_in "$tmp/err" "unhandled rejection ($mode)" ") UnhandledPromiseRejectionWarning: Error: rejected"
  expect_in "$tmp/err" "unhandled rejection ($mode)" "(rejection id: 1)"
done
run_js node "$tmp/reject.js"
expect_status "unhandled rejection (node)" 1
expect_stdout "unhandled rejection (node)" "before"
expect_in "$tmp/err" "unhandled rejection (node)" "$tmp/reject.js:2"
expect_in "$tmp/err" "unhandled rejection (node)" "Error: rejected"

printf 'queueMicrotask(() => {});\n' > "$tmp/qm.js"
run_js node10 "$tmp/qm.js"
expect_status "queueMicrotask in node10" 1
expect_in "$tmp/err" "queueMicrotask in node10" "queueMicrotask is not defined"
run_js node11 "$tmp/qm.js"
expect_status "queueMicrotask in node11" 0

printf 'require("http");\n' > "$tmp/require.js"
run_js node "$tmp/require.js"
expect_status "require('http')" 1
expect_in "$tmp/err" "require('http')" "Cannot find module 'http'"

printf 'setTimeout("not a function", 1);\n' > "$tmp/badcb.js"
run_js node "$tmp/badcb.js"
expect_status "setTimeout(string)" 1
expect_in "$tmp/err" "setTimeout(string)" 'The "callback" argument must be of type function'

# An uncaught error the engine made is reported in V8's words (the script
# says no catch: no Debugger watched it, and the report rewords it).
printf 'const o = {};\nconsole.log(o.a.b);\n' > "$tmp/engine.js"
for mode in node10 node11 node; do
  run_js "$mode" "$tmp/engine.js"
  expect_status "engine error ($mode)" 1
  if [ "$mode" = node ]; then want="TypeError: Cannot read properties of undefined (reading 'b')"
  else want="TypeError: Cannot read property 'b' of undefined"; fi
  expect_in "$tmp/err" "engine error ($mode)" "$want"
done
printf 'function r() { r(); }\nr();\n' > "$tmp/recursion.js"
run_js node10 "$tmp/recursion.js"
expect_in "$tmp/err" "stack exhaustion" "RangeError: Maximum call stack size exceeded"
printf 'Promise.resolve().then(() => null.x);\n' > "$tmp/engine-rejection.js"
run_js node11 "$tmp/engine-rejection.js"
expect_in "$tmp/err" "engine error rejected (node11)" "UnhandledPromiseRejectionWarning: TypeError: Cannot read property 'x' of null"
run_js node "$tmp/engine-rejection.js"
expect_in "$tmp/err" "engine error rejected (node)" "TypeError: Cannot read properties of null (reading 'x')"

# A thrown value that is not an Error: Node prints a string as it is, a
# Symbol as nothing (Node 20) or "<toString() threw exception>" (10, 11),
# an object as a string (10, 11) or inspected (20); the caret is under the
# throw.
printf "const a = 1;\n  if (a) throw 'str';\n" > "$tmp/throw-string.js"
for mode in node10 node; do
  run_js "$mode" "$tmp/throw-string.js"
  grep -qx '         ^' "$tmp/err" || fail "throw 'str' ($mode): no caret under the throw in: $(cat "$tmp/err")"
  grep -qx 'str' "$tmp/err" || fail "throw 'str' ($mode): no unquoted str in: $(cat "$tmp/err")"
done
printf "throw Symbol('s');\n" > "$tmp/throw-symbol.js"
run_js node11 "$tmp/throw-symbol.js"
expect_in "$tmp/err" "throw Symbol (node11)" "<toString() threw exception>"
run_js node "$tmp/throw-symbol.js"
expect_not_in "$tmp/err" "throw Symbol (node)" "Symbol(s)"
printf "throw {a: 1};\n" > "$tmp/throw-object.js"
run_js node10 "$tmp/throw-object.js"
expect_in "$tmp/err" "throw {a: 1} (node10)" "[object Object]"
run_js node "$tmp/throw-object.js"
expect_in "$tmp/err" "throw {a: 1} (node)" "{ a: 1 }"
expect_not_in "$tmp/err" "throw {a: 1} (node)" "--trace-uncaught"

# Files and usage.
checks=$((checks + 1))
set +e
"$pl" run "$tmp/does-not-exist.js" > "$tmp/out" 2> "$tmp/err"
status=$?
set -e
expect_status "missing file" 1
expect_in "$tmp/err" "missing file" "phaseloop: cannot open $tmp/does-not-exist.js: No such file or directory"

for args in "" "run" "frobnicate x.js" "run --mode=node12 x.js" "run --bogus x.js" "compare --modes=node10 x.js"; do
  checks=$((checks + 1))
  set +e
  # shellcheck disable=SC2086
  "$pl" $args > "$tmp/out" 2> "$tmp/err"
  status=$?
  set -e
  expect_status "usage: '$args'" 2
  expect_in "$tmp/err" "usage: '$args'" "usage: phaseloop run"
done

checks=$((checks + 1))
"$pl" --help > "$tmp/out"
expect_in "$tmp/out" "--help" "--trace"
expect_in "$tmp/out" "--help" "Exit status: 0 when every mode printed"
"$pl" --version > "$tmp/out"
grep -qE "SpiderMonkey (102|128)[.;]" "$tmp/out" || fail "--version: no SpiderMonkey 102 or 128 in: $(head -c 300 "$tmp/out")"

done_testing
