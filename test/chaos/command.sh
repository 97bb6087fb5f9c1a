#!/bin/sh
# SPDX-License-Identifier: MIT
# Chaos mode from outside the program: PHASELOOP_CHAOS on the drop-in, and
# `phaseloop chaos -- COMMAND`. The program is examples/chaos/line_protocol,
# built against Debian's libuv and run unchanged on the drop-in. Checked:
# with chaos off it passes; `phaseloop chaos` finds its bug within 10 seeds,
# names the failing seeds, shrinks the first to fewer choices that still
# fail, and says the PHASELOOP_CHAOS value that repeats it, which does;
# the fixed program passes 20 seeds; the same value makes the same choices
# (the timeline's chaos marks, run twice), another seed others; the
# timeline names the value and the program's stderr is its own; a bad
# value is reported and leaves chaos off; bad options get status 2.
#
# Environment (from make check): PHASELOOP_BIN, abs_top_builddir.
set -u
phaseloop=${PHASELOOP_BIN:?}
build=${abs_top_builddir:?}
prog=$build/examples/chaos/line_protocol-libuv
dropin=$build/dropin/.libs
tmp=$(mktemp -d "${TMPDIR:-/tmp}/chaos-cmd.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL $*"; status=1; }
ok() { echo "ok: $*"; }

[ -x "$prog" ] || { echo "FAIL: $prog is not built"; exit 1; }

# Without chaos, on the drop-in: passes.
if LD_LIBRARY_PATH=$dropin "$prog" > "$tmp/plain" 2>&1; then ok "passes without chaos: $(cat "$tmp/plain")"
else fail "fails without chaos: $(cat "$tmp/plain")"; fi

# phaseloop chaos finds the bug, shrinks it, and says how to repeat it.
"$phaseloop" chaos --runs 10 -- "$prog" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 1 ] || fail "phaseloop chaos exited $rc, not 1 (a seed failed): $(cat "$tmp/err")"
failed=$(sed -n 's/^phaseloop chaos: 10 runs, \([0-9]*\) failed.*/\1/p' "$tmp/err")
[ -n "$failed" ] && [ "$failed" -ge 1 ] || fail "no failing seed named: $(cat "$tmp/err")"
grep -q "bad command\|no such key" "$tmp/err" || fail "the first failure's output is not shown: $(cat "$tmp/err")"
value=$(sed -n 's/^phaseloop chaos: the fewest choices found that still fail: PHASELOOP_CHAOS=\([^ ]*\) .*/\1/p' "$tmp/err")
[ -n "$value" ] || fail "no shrunk value: $(cat "$tmp/err")"
case $value in *limit=*) ;; *) fail "the shrunk value $value has no limit" ;; esac
ok "$failed of 10 seeds failed; shrunk to PHASELOOP_CHAOS=$value"
# The value repeats the failure, and with limit=0 (no perturbation) it passes.
if PHASELOOP_CHAOS=$value LD_LIBRARY_PATH=$dropin "$prog" > "$tmp/again" 2>&1; then
  fail "PHASELOOP_CHAOS=$value did not fail again: $(cat "$tmp/again")"
else ok "PHASELOOP_CHAOS=$value fails again"; fi
none=$(echo "$value" | sed 's/limit=[0-9]*/limit=0/')
PHASELOOP_CHAOS=$none LD_LIBRARY_PATH=$dropin "$prog" > /dev/null 2>&1 || fail "PHASELOOP_CHAOS=$none (no perturbation) failed"

# The fixed program: every seed passes.
"$phaseloop" chaos --runs 20 -- "$prog" --fixed > /dev/null 2> "$tmp/fixed"
rc=$?
if [ "$rc" -eq 0 ] && grep -q '20 runs, 0 failed' "$tmp/fixed"; then ok "the fixed program passes 20 seeds"
else fail "the fixed program: status $rc: $(tail -5 "$tmp/fixed")"; fi

# The same value, the same choices: the timeline's chaos marks.
marks() {
  PHASELOOP_CHAOS=$1 PHASELOOP_TRACE=$tmp/t.json LD_LIBRARY_PATH=$dropin "$prog" --fixed > /dev/null 2> "$tmp/seedline" || return 1
  grep -o '"choice":"[^"]*"' "$tmp/t.json" > "$2" || true
}
# (The first seed whose run makes three choices or more.)
seed=
for s in 1 2 3 4 5 6 7 8 9 10; do
  marks "$s" "$tmp/m1" || { fail "a traced run failed (seed $s)"; break; }
  if [ "$(wc -l < "$tmp/m1")" -ge 3 ]; then seed=$s; break; fi
done
if [ -z "$seed" ]; then
  fail "no seed of 10 put three chaos marks on the timeline"
else
  other=$((seed + 1))
  marks "$seed" "$tmp/m2" && marks "$other" "$tmp/m3" || fail "a traced run failed"
  cmp -s "$tmp/m1" "$tmp/m2" || fail "seed $seed made different choices twice: $(diff "$tmp/m1" "$tmp/m2" | head -5)"
  cmp -s "$tmp/m1" "$tmp/m3" && fail "seeds $seed and $other made the same choices"
  grep -q "\"PHASELOOP_CHAOS\":\"$other\"" "$tmp/t.json" || fail "the timeline does not name PHASELOOP_CHAOS=$other"
  [ -s "$tmp/seedline" ] && fail "chaos mode wrote to the program's stderr: $(cat "$tmp/seedline")"
  ok "seed $seed twice: the same $(wc -l < "$tmp/m1") choices; seed $other: others"
fi

# A bad value: said, and chaos stays off.
PHASELOOP_CHAOS=7,nonsense LD_LIBRARY_PATH=$dropin "$prog" > /dev/null 2> "$tmp/bad"
rc=$?
grep -q 'PHASELOOP_CHAOS=7,nonsense: "nonsense" is no kind of choice' "$tmp/bad" || fail "bad value not reported: $(cat "$tmp/bad")"
[ "$rc" -eq 0 ] || fail "with a bad value (chaos off) the program failed ($rc)"

# Bad options.
for args in "--runs 0 -- true" "--seed x -- true" "--kinds bogus -- true" "--timeout -1 -- true" "--frob -- true" ""; do
  # shellcheck disable=SC2086
  "$phaseloop" chaos $args > /dev/null 2> "$tmp/usage"
  rc=$?
  [ "$rc" -eq 2 ] || fail "phaseloop chaos $args exited $rc, not 2"
  [ -s "$tmp/usage" ] || fail "phaseloop chaos $args said nothing"
done
"$phaseloop" chaos -- "$tmp/missing-program" > /dev/null 2> "$tmp/missing"
[ $? -eq 2 ] && grep -q 'cannot run' "$tmp/missing" || fail "a missing program: $(cat "$tmp/missing")"

exit $status
