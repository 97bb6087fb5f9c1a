#!/bin/sh
# SPDX-License-Identifier: MIT
# `phaseloop run --trace=OUT.json`: the timeline of a script passes
# test/observe/trace_check in every mode, with the loop's phases and
# callbacks and the JavaScript level (Node modes: native callbacks,
# timeouts, immediates, ticks, microtasks, drains; browser: tasks,
# checkpoints, microtasks, rendering, animation frames, idle periods and
# callbacks), each JavaScript slice inside the callback of the phase that
# ran it. The script's output is the same as without the option; a
# process.exit() from a timer still writes the file (the exit status
# kept); a path that cannot be written fails before the run.
#
# Environment (from make check): PHASELOOP_BIN, abs_top_builddir.
set -u
phaseloop=${PHASELOOP_BIN:?}
check=${abs_top_builddir:?}/test/observe/trace_check
tmp=$(mktemp -d "${TMPDIR:-/tmp}/run-trace.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL $*"; status=1; }

cat > "$tmp/node.js" <<'JS'
const fs = require('fs');
process.nextTick(() => console.log('first tick'));
fs.stat(__filename, () => {
  console.log('stat');
  setTimeout(() => {
    console.log('timeout');
    process.nextTick(() => console.log('tick'));
    Promise.resolve().then(() => console.log('microtask'));
  }, 0);
  setImmediate(() => console.log('immediate'));
});
JS
cat > "$tmp/browser.js" <<'JS'
// Each step asks for the next, so that the order is the same when the
// traced run is slower (a frame due before the timeout ran once came first).
setTimeout(() => {
  console.log('timeout');
  Promise.resolve().then(() => {
    console.log('microtask');
    requestAnimationFrame(() => {
      console.log('frame');
      requestIdleCallback(() => { console.log('idle'); console.log('END'); });
    });
  });
}, 0);
JS

# mode SCRIPT KINDS JS: the run with the option prints what it prints
# without, and its timeline passes trace_check.
trace_mode() {
  m=$1 script=$2 kinds=$3 js=$4
  if ! "$phaseloop" run --mode="$m" "$script" > "$tmp/plain.out" 2>&1; then
    fail "$m: the script failed without --trace="; cat "$tmp/plain.out"; return
  fi
  if ! "$phaseloop" run --mode="$m" --trace="$tmp/$m.json" "$script" > "$tmp/traced.out" 2>&1; then
    fail "$m: the script failed with --trace="; cat "$tmp/traced.out"; return
  fi
  if ! cmp -s "$tmp/plain.out" "$tmp/traced.out"; then
    fail "$m: the output changed with --trace="; diff "$tmp/plain.out" "$tmp/traced.out"; return
  fi
  if "$check" "$tmp/$m.json" --phases timers,poll --kinds "$kinds" --js "$js" > "$tmp/log"; then
    echo "ok: $m: $(cat "$tmp/log")"
  else
    fail "$m:"; cat "$tmp/log"
  fi
}
for m in node10 node11 node; do
  trace_mode $m "$tmp/node.js" timer,fs,check native,timeout,immediate,tick,microtask,drain
done
# (browser mode: no core callback kind is required, as which one runs a
# due task depends on timing)
trace_mode browser "$tmp/browser.js" "" \
  task,microtask-checkpoint,microtask,rendering,animation-frame,idle-period,idle-callback

# process.exit(3) from a timer's tick: the status is 3, the file written,
# its open slices closed.
cat > "$tmp/exit.js" <<'JS'
setTimeout(() => process.nextTick(() => { console.log('bye'); process.exit(3); }), 1);
JS
"$phaseloop" run --trace="$tmp/exit.json" "$tmp/exit.js" > "$tmp/out" 2>&1
rc=$?
if [ $rc -eq 3 ] && grep -qx bye "$tmp/out" && "$check" "$tmp/exit.json" --js tick > "$tmp/log" &&
    grep -q '"unfinished":true' "$tmp/exit.json"; then
  echo "ok: process.exit: $(cat "$tmp/log")"
else
  fail "process.exit: status $rc"; cat "$tmp/out" "$tmp/log"
fi

# A file that cannot be written: status 2 and a message, the script not run.
"$phaseloop" run --trace="$tmp/no/such/dir/t.json" "$tmp/exit.js" > "$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "cannot write the trace $tmp/no/such/dir/t.json" "$tmp/out" && ! grep -q bye "$tmp/out"; then
  echo "ok: unwritable path: $(head -1 "$tmp/out")"
else
  fail "unwritable path: status $rc"; cat "$tmp/out"
fi
"$phaseloop" run --trace= "$tmp/exit.js" > "$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "needs a file name" "$tmp/out"; then
  echo "ok: --trace= without a name"
else
  fail "--trace= without a name: status $rc"; cat "$tmp/out"
fi
exit $status
