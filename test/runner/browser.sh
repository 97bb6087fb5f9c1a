#!/bin/sh
# SPDX-License-Identifier: MIT
# --mode=browser: the window's globals, errors reported as a page reports
# them (window.onerror, "Uncaught ..." on stderr, the run goes on, status 1
# at the end), unhandled rejections at the end of a microtask checkpoint,
# the bindings' TypeErrors, timers, MessageChannel, idle callbacks and
# animation frames, the --trace view, the browser column of `compare`, and
# runs that end by themselves.
. "${srcdir:-.}/test/runner/lib.sh"
set -e

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
cat > "$tmp/globals.js" <<'JS'
console.log('window', window === globalThis, self === window);
console.log('node', typeof process, typeof setImmediate, typeof require);
console.log('queueMicrotask', typeof queueMicrotask);
const a = performance.now();
let x = 0;
for (let i = 0; i < 2e6; i++) x += i;
const b = performance.now();
console.log('now', typeof a, a >= 0, b > a);
JS
run_js browser "$tmp/globals.js"
expect_status "globals" 0
expect_stdout "globals" "window true true
node undefined undefined undefined
queueMicrotask function
now number true true"
expect_not_in "$tmp/err" "globals" "Uncaught"

# ---- 2. errors -------------------------------------------------------------------
cat > "$tmp/throw.js" <<'JS'
console.log('before');
function f() {
  throw new Error('boom');
}
setTimeout(f, 1);
setTimeout(() => console.log('after'), 5);
JS
run_js browser "$tmp/throw.js"
expect_status "uncaught in a timer" 1
expect_stdout "uncaught in a timer" "before
after"
expect_in "$tmp/err" "uncaught in a timer" "$tmp/throw.js:3"
expect_in "$tmp/err" "uncaught in a timer" "  throw new Error('boom');"
expect_in "$tmp/err" "uncaught in a timer" "Uncaught Error: boom"

# window.onerror returning true handles the error.
cat > "$tmp/onerror.js" <<'JS'
window.onerror = function (message, source, lineno, colno, error) {
  console.log('message', message);
  console.log('source', source);
  console.log('lineno', lineno, 'colno', typeof colno, colno > 0);
  console.log('error', error instanceof Error, error.message, this === window);
  return true;
};
setTimeout(function f() {
  throw new Error('boom');
}, 1);
setTimeout(() => console.log('after'), 5);
JS
run_js browser "$tmp/onerror.js"
expect_status "onerror returns true" 0
expect_stdout "onerror returns true" "message Uncaught Error: boom
source $tmp/onerror.js
lineno 9 colno number true
error true boom true
after"
checks=$((checks + 1))
[ ! -s "$tmp/err" ] || fail "onerror returns true: stderr is '$(head -c 300 "$tmp/err")'"

# Returning false, or nothing, does not cancel the report.
for ret in "return false;" ""; do
  sed "s/  return true;/  $ret/" "$tmp/onerror.js" > "$tmp/onerror2.js"
  run_js browser "$tmp/onerror2.js"
  expect_status "onerror '$ret'" 1
  expect_in "$tmp/out" "onerror '$ret'" "message Uncaught Error: boom"
  expect_in "$tmp/out" "onerror '$ret'" "after"
  expect_in "$tmp/err" "onerror '$ret'" "$tmp/onerror2.js:9"
  expect_in "$tmp/err" "onerror '$ret'" "Uncaught Error: boom"
done

cat > "$tmp/syntax.js" <<'JS'
console.log('never');
let x = ;
JS
run_js browser "$tmp/syntax.js"
expect_status "syntax error" 1
expect_stdout "syntax error" ""
expect_in "$tmp/err" "syntax error" "$tmp/syntax.js:2"
expect_in "$tmp/err" "syntax error" "let x = ;"
expect_in "$tmp/err" "syntax error" "Uncaught SyntaxError: "

cat > "$tmp/reject.js" <<'JS'
console.log('before');
Promise.reject(new Error('nobody catches this'));
setTimeout(() => console.log('after'), 1);
JS
run_js browser "$tmp/reject.js"
expect_status "unhandled rejection" 1
expect_stdout "unhandled rejection" "before
after"
expect_in "$tmp/err" "unhandled rejection" "Uncaught (in promise)"
expect_in "$tmp/err" "unhandled rejection" "nobody catches this"

# Handled before the checkpoint ends: not reported.
cat > "$tmp/handled.js" <<'JS'
const p = Promise.reject(new Error('x'));
p.catch((e) => console.log('caught sync', e.message));
const q = Promise.reject(new Error('y'));
queueMicrotask(() => q.catch((e) => console.log('caught in a microtask', e.message)));
setTimeout(() => {
  const r = Promise.reject(42);
  Promise.resolve().then(() => r.catch((v) => console.log('caught in a timer checkpoint', v)));
}, 1);
JS
run_js browser "$tmp/handled.js"
expect_status "handled rejections" 0
expect_stdout "handled rejections" "caught sync x
caught in a microtask y
caught in a timer checkpoint 42"
expect_not_in "$tmp/err" "handled rejections" "Uncaught"

# A string handler's error names where that code is, not an unrelated line
# of the file (the string is compiled as line 1 of the script's file).
cat > "$tmp/string-throw.js" <<'JS'
console.log('line one of the file');
setTimeout("throw new Error('from a string')", 1);
JS
run_js browser "$tmp/string-throw.js"
expect_status "string handler throws" 1
expect_stdout "string handler throws" "line one of the file"
expect_in "$tmp/err" "string handler throws" "Uncaught Error: from a string"
expect_not_in "$tmp/err" "string handler throws" "console.log('line one of the file');"

# ---- 3. bad arguments ------------------------------------------------------------
cat > "$tmp/badargs.js" <<'JS'
const ch = new MessageChannel();
const cases = [
  ['requestAnimationFrame(1)', () => requestAnimationFrame(1)],
  ["requestIdleCallback('x')", () => requestIdleCallback('x')],
  ['queueMicrotask(5)', () => queueMicrotask(5)],
  ['MessageChannel()', () => MessageChannel()],
  ['postMessage()', () => ch.port1.postMessage()],
  ['requestIdleCallback(f, 5)', () => requestIdleCallback(() => {}, 5)],
];
for (const [what, f] of cases) {
  try {
    f();
    console.log(what, 'did not throw');
  } catch (e) {
    console.log(what, '->', e.name + ': ' + e.message);
  }
}
JS
run_js browser "$tmp/badargs.js"
expect_status "bad arguments" 0
expect_stdout "bad arguments" "requestAnimationFrame(1) -> TypeError: Failed to execute 'requestAnimationFrame' on 'Window': parameter 1 is not of type 'Function'.
requestIdleCallback('x') -> TypeError: Failed to execute 'requestIdleCallback' on 'Window': parameter 1 is not of type 'Function'.
queueMicrotask(5) -> TypeError: Failed to execute 'queueMicrotask' on 'Window': parameter 1 is not of type 'Function'.
MessageChannel() -> TypeError: Failed to construct 'MessageChannel': Please use the 'new' operator, this DOM object constructor cannot be called as a function.
postMessage() -> TypeError: Failed to execute 'postMessage' on 'MessagePort': 1 argument required, but only 0 present.
requestIdleCallback(f, 5) -> TypeError: Failed to execute 'requestIdleCallback' on 'Window': The provided value is not of type 'IdleRequestOptions'."

# ---- 4. timers --------------------------------------------------------------------
cat > "$tmp/timers.js" <<'JS'
setTimeout("console.log('from string')", 0);
setTimeout((a, b, c) => console.log('args', a, b, c.length), 2, 'x', 2, [3]);
const own = setTimeout(() => {
  clearTimeout(own);
  console.log('cleared itself and went on');
}, 4);
let ticks = 0;
const iv = setInterval(() => {
  ticks++;
  console.log('tick', ticks);
  if (ticks === 2) clearInterval(iv);
}, 6);
setTimeout(() => console.log('ticks at 60 ms', ticks), 60);
clearTimeout(123456);
clearTimeout();
clearTimeout(undefined);
clearInterval(null);
const ids = [setTimeout(() => {}, 0), setInterval(() => {}, 0), setTimeout(() => {}, 0)];
clearInterval(ids[1]);
console.log('ids', ids.every((i) => Number.isInteger(i) && i > 0), new Set(ids).size);
const gone = setTimeout(() => console.log('a cleared timer ran'), 0);
clearTimeout(gone);
JS
run_browser "$tmp/timers.js"
expect_status "timers" 0
expect_stdout "timers" "ids true 3
from string
args x 2 1
cleared itself and went on
tick 1
tick 2
ticks at 60 ms 2"

# ---- 5. MessageChannel --------------------------------------------------------------
cat > "$tmp/clone.js" <<'JS'
const ch = new MessageChannel();
const msg = { a: 1, nested: { list: [1, 2, { deep: true }] }, m: new Map([['k', [1, 2]]]) };
ch.port1.onmessage = function (e) {
  const d = e.data;
  console.log('a', d.a, 'extra', d.extra);
  console.log('list', d.nested.list.length, d.nested.list[2].deep);
  console.log('map', d.m instanceof Map, d.m.get('k').join(','));
  console.log('copy', d !== msg, e.target === ch.port1, this === ch.port1);
  ch.port1.close();
};
ch.port2.postMessage(msg);
msg.a = 99;
msg.extra = 'added';
msg.nested.list.push(4);
msg.m.set('k', []);
try {
  ch.port2.postMessage(() => 1);
  console.log('posting a function did not throw');
} catch (e) {
  console.log('posting a function threw');
}
JS
run_browser "$tmp/clone.js"
expect_status "structured clone" 0
expect_stdout "structured clone" "posting a function threw
a 1 extra undefined
list 3 true
map true 1,2
copy true true true"

cat > "$tmp/closed.js" <<'JS'
const ch = new MessageChannel();
ch.port1.onmessage = (e) => console.log('delivered', e.data);
ch.port1.close();
ch.port2.postMessage('to a closed port');
ch.port1.postMessage('from a closed port');
console.log('posted');
JS
run_browser "$tmp/closed.js"
expect_status "post after close" 0
expect_stdout "post after close" "posted"

cat > "$tmp/unstarted.js" <<'JS'
const ch = new MessageChannel();
ch.port2.postMessage('nobody listens');
setTimeout(() => console.log('timer'), 1);
console.log('posted');
JS
run_browser "$tmp/unstarted.js"
expect_status "port never started" 0
expect_stdout "port never started" "posted
timer"

cat > "$tmp/start.js" <<'JS'
const ch = new MessageChannel();
ch.port2.postMessage('one');
ch.port2.postMessage('two');
setTimeout(() => {
  ch.port1.start();
  ch.port1.onmessage = (e) => console.log('got', e.data);
  console.log('started');
}, 5);
JS
run_browser "$tmp/start.js"
expect_status "start() later" 0
expect_stdout "start() later" "started
got one
got two"

# ---- 6. idle callbacks and animation frames --------------------------------------
cat > "$tmp/idle.js" <<'JS'
cancelIdleCallback(98765);
const c = requestIdleCallback(() => console.log('a cancelled idle callback ran'));
cancelIdleCallback(c);
requestIdleCallback((d) => {
  const r = d.timeRemaining();
  console.log('idle', typeof r, r > 0, r <= 50, d.didTimeout);
});
JS
run_browser "$tmp/idle.js"
expect_status "idle callback" 0
expect_stdout "idle callback" "idle number true true false"

cat > "$tmp/raf.js" <<'JS'
const stamps = [];
requestAnimationFrame((t) => stamps.push(t));
requestAnimationFrame((t) => {
  stamps.push(t);
  console.log('frame', typeof t, t > 0, stamps.length, stamps[0] === stamps[1]);
  requestAnimationFrame((t2) => console.log('next frame', t2 > t));
});
JS
run_browser "$tmp/raf.js"
expect_status "animation frames" 0
expect_stdout "animation frames" "frame number true 2 true
next frame true"

# ---- 7. --trace ----------------------------------------------------------------------
# trace_run NAME: runs $tmp/NAME.js with --trace; times are dropped from $tmp/out.
trace_run() {
  run_browser --trace "$tmp/$1.js"
  sed -e 's/ @[0-9.]*ms$//' -e 's/^\(# idle period until\) [0-9.]*ms$/\1/' "$tmp/out" > "$tmp/stripped"
  mv "$tmp/stripped" "$tmp/out"
}

cat > "$tmp/trace-timer.js" <<'JS'
console.log('script');
setTimeout(() => {
  console.log('timer');
  Promise.resolve().then(() => console.log('promise'));
}, 0);
JS
trace_run trace-timer
expect_status "trace: timer" 0
expect_stdout "trace: timer" "# task (networking): script ($tmp/trace-timer.js)
script
# task (timer): setTimeout #1 (0 ms, nesting level 1)
timer
#   microtask checkpoint
#     microtask: promise job #1
promise"

cat > "$tmp/trace-frame.js" <<'JS'
requestAnimationFrame(() => {
  console.log('frame 1');
  Promise.resolve().then(() => console.log('promise'));
});
requestAnimationFrame(() => console.log('frame 2'));
JS
trace_run trace-frame
expect_status "trace: frames" 0
expect_stdout "trace: frames" "# task (networking): script ($tmp/trace-frame.js)
# update the rendering
#   animation frame callback: requestAnimationFrame #1
frame 1
#   microtask checkpoint
#     microtask: promise job #1
promise
#   animation frame callback: requestAnimationFrame #2
frame 2"

printf "requestIdleCallback(() => console.log('idle'));\n" > "$tmp/trace-idle.js"
trace_run trace-idle
expect_status "trace: idle" 0
expect_stdout "trace: idle" "# task (networking): script ($tmp/trace-idle.js)
# idle period until
# idle callback: requestIdleCallback #1
idle"

cat > "$tmp/trace-message.js" <<'JS'
const ch = new MessageChannel();
ch.port1.onmessage = (e) => console.log('message', e.data);
ch.port2.postMessage('hi');
JS
trace_run trace-message
expect_status "trace: message" 0
expect_stdout "trace: message" "# task (networking): script ($tmp/trace-message.js)
# task (posted-message): message (to port1)
message hi"

# Without the trace lines, the output is the plain run's.
run_browser --trace "$tmp/trace-frame.js"
grep -v '^#' "$tmp/out" > "$tmp/traced"
run_browser "$tmp/trace-frame.js"
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
cat > "$tmp/cmp-timers.js" <<'JS'
setTimeout(() => {
  console.log('timer1');
  Promise.resolve().then(() => console.log('promise1'));
}, 1);
setTimeout(() => console.log('timer2'), 1);
const start = Date.now();
while (Date.now() - start < 5) {}
JS
compare "$tmp/cmp-timers.js"
expect_status "compare: timers" 1
expect_in "$tmp/out" "compare: timers" "     node10   | node11   | node     | browser"
expect_in "$tmp/out" "compare: timers" "* 2  timer2   | promise1 | promise1 | promise1   <- first divergence"
expect_in "$tmp/out" "compare: timers" "node vs browser: same output."

compare --modes=node,browser "$tmp/cmp-timers.js"
expect_status "compare: two modes" 0
expect_in "$tmp/out" "compare: two modes" "     node     | browser"
expect_in "$tmp/out" "compare: two modes" "All 2 modes print the same 3 lines."
expect_not_in "$tmp/out" "compare: two modes" "node10"
expect_not_in "$tmp/out" "compare: two modes" "node11"

printf "console.log('start');\nrequestAnimationFrame(() => console.log('frame'));\n" > "$tmp/cmp-raf.js"
compare "$tmp/cmp-raf.js"
expect_status "compare: rAF" 1
expect_in "$tmp/out" "compare: rAF" "* 2         |        |        | frame   <- first divergence"
expect_in "$tmp/out" "compare: rAF" "     exit 1 | exit 1 | exit 1 | exit 0"
expect_in "$tmp/out" "compare: rAF" "requestAnimationFrame belongs to the browser; Node has none."

printf "console.log('start');\nsetImmediate(() => console.log('immediate'));\n" > "$tmp/cmp-immediate.js"
compare "$tmp/cmp-immediate.js"
expect_status "compare: setImmediate" 1
expect_in "$tmp/out" "compare: setImmediate" "exit 0    | exit 0    | exit 0    | exit 1"
expect_in "$tmp/out" "compare: setImmediate" "setImmediate is Node's; a browser window has none."

# A line printed by a promise job after a timer task: the browser's step
# is named as a page step, not as a Node phase.
cat > "$tmp/cmp-checkpoint.js" <<'JS'
setTimeout(() => console.log('a'), 1);
setTimeout(() => Promise.resolve().then(() => console.log('b')), 0);
JS
compare --modes=node,browser "$tmp/cmp-checkpoint.js"
expect_status "compare: checkpoint step" 1
expect_in "$tmp/out" "compare: checkpoint step" "browser printed \"b\" from promise job #1"
expect_not_in "$tmp/out" "compare: checkpoint step" "microtask-checkpoint phase of iteration"
expect_in "$tmp/out" "compare: checkpoint step" "from promise job #1 in task 2 of the page"

compare --modes=browser,bogus "$tmp/cmp-timers.js"
expect_status "compare: bad mode" 2

# ---- 9. teardown: an open, started port does not keep the page alive -----------------
cat > "$tmp/open-port.js" <<'JS'
const ch = new MessageChannel();
ch.port1.onmessage = (e) => console.log('got', e.data);
ch.port2.onmessage = (e) => console.log('got', e.data);
setTimeout(() => console.log('timer'), 1);
console.log('open');
JS
run_browser "$tmp/open-port.js"
expect_status "open port" 0
expect_stdout "open port" "open
timer"

done_testing
