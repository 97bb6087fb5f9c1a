#!/bin/sh
# SPDX-License-Identifier: MIT
# Every bench/*.sh and bench/*.py refuses bad arguments before it builds or
# runs anything: exit 2 within seconds, with a message that names the
# script and what is wrong (bench/lib.sh's bench_need and bench_positive
# for round counts; libuv-suite.py says the same in Python).
#   - the scripts with rounds: -r without a value, and -r with a count that
#     is not a positive integer;
#   - callgrind.sh: a benchmark bench/run.sh does not build;
#   - targets.sh: a table it cannot read;
#   - footprint/run.sh: a round count that is not a positive integer;
#   - wake-footprint.py: a wake-up count that is not a positive number, a
#     mode it does not know.
# A new bench script must be put in one of these lists.
set -u
top=${srcdir:-.}
status=0
fail() { echo "FAIL: $*"; status=1; }

with_rounds="run.sh http-wrk.sh trace-cost.sh engine-promises.sh node-layer.sh fs-io.sh libuv-suite.py fixed-load.py"
others="callgrind.sh targets.sh lib.sh wake-footprint.py"

# expect NAME PATTERN ARGS...: bench/NAME ARGS exits 2 and says PATTERN
# after its name (footprint/run.sh calls itself footprint).
expect() {
  name=$1 pattern=$2
  shift 2
  case $name in *.py) interpreter=python3 ;; *) interpreter=bash ;; esac
  out=$(timeout 20 "$interpreter" "$top/bench/$name" "$@" 2>&1 > /dev/null)
  rc=$?
  if [ "$rc" -ne 2 ]; then
    fail "$name $*: exit $rc, expected 2 ($out)"
  elif ! printf '%s\n' "$out" | grep -q "^${name%/run.sh}: $pattern"; then
    fail "$name $*: message '$out', expected '${name%/run.sh}: $pattern'"
  else
    echo "PASS: $name $*: $out"
  fi
}

for name in $with_rounds; do
  # The first argument is a build tree (or, for engine-promises.sh and
  # node-layer.sh, a binary): any existing path serves, as the options are
  # checked first. run.sh takes none.
  case $name in run.sh) first= ;; *) first=/ ;; esac
  expect "$name" "-r needs a value" $first -r
  for bad in abc 0 -1 2x; do
    expect "$name" ".*-r.* must be a positive integer, not '$bad'" $first -r "$bad"
  done
done
expect fixed-load.py "--counts takes a number of requests, not 'abc'" / --counts abc
expect fixed-load.py "--servers takes c, c-dropin, c-aa, node, node-aa, not 'go'" / --servers c,go
expect fixed-load.py "--report prints the tables of a --json file; it takes no build directory" / --report x.json

# fixed-load.py --report: the tables of a saved run, and the pooled
# ratios, from two rounds of one cell: libuv / phaseloop CPU 2.0 and 0.5,
# p99 1.25 and 1.0 (phaseloop at or below libuv in both).
json=$(mktemp)
cat > "$json" <<'JSON'
{"machine_load_before": "0 0 0", "machine_load_after": "0 0 0", "clients": 4, "duration_s": 1,
 "rounds": 2, "idle": {}, "counts": {}, "max": [], "runs": [
 {"kind": "c", "loops": 1, "load": 50, "offered": 100, "round": 0, "config": "libuv", "cpu_ms_per_1000": 4,
  "kernel_pct": 50, "switches_per_1000": 1, "p50_us": 10, "p99_us": 50, "max_us": 60, "errors": 0},
 {"kind": "c", "loops": 1, "load": 50, "offered": 100, "round": 0, "config": "phaseloop", "cpu_ms_per_1000": 2,
  "kernel_pct": 50, "switches_per_1000": 1, "p50_us": 10, "p99_us": 40, "max_us": 60, "errors": 0},
 {"kind": "c", "loops": 1, "load": 50, "offered": 100, "round": 1, "config": "libuv", "cpu_ms_per_1000": 2,
  "kernel_pct": 50, "switches_per_1000": 1, "p50_us": 10, "p99_us": 40, "max_us": 60, "errors": 0},
 {"kind": "c", "loops": 1, "load": 50, "offered": 100, "round": 1, "config": "phaseloop", "cpu_ms_per_1000": 4,
  "kernel_pct": 50, "switches_per_1000": 1, "p50_us": 10, "p99_us": 40, "max_us": 60, "errors": 0}]}
JSON
out=$(python3 "$top/bench/fixed-load.py" --report "$json" 2>&1)
rm -f "$json"
row='| example HTTP server | 2 | 1.25 (0.88-1.62) | 1 of 2 | 1.12 (1.06-1.19) | 2 of 2 |'
if printf '%s\n' "$out" | grep -qF -- "$row"; then
  echo "PASS: fixed-load.py --report: the pooled row"
else
  fail "fixed-load.py --report: no row '$row' in: $out"
fi
# fixed-load.py's waits under callgrind: calls to epoll_wait and
# epoll_pwait, named in full at first use and by number after; other
# callees (epoll_ctl) are not counted. 3 + 2 + 4 = 9.
waits=$(python3 - "$top/bench/fixed-load.py" <<'PY' 2>&1
import importlib.util, os, sys, tempfile
spec = importlib.util.spec_from_file_location("fl", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
text = """version: 1
events: Ir
fn=(1) main
cfn=(2) epoll_wait
calls=3 0
10 40
cfn=(3) epoll_ctl
calls=7 0
11 70
fn=(4) loop
cfn=(2)
calls=2 0
12 20
cfn=(5) epoll_pwait
calls=4 0
13 10
fn=(2)
5 100
"""
fd, path = tempfile.mkstemp()
with os.fdopen(fd, "w") as f:
    f.write(text)
print(m.callgrind_waits(path))
os.unlink(path)
PY
)
if [ "$waits" = 9 ]; then
  echo "PASS: fixed-load.py counts the waits of a callgrind file"
else
  fail "fixed-load.py: callgrind_waits gave '$waits', not 9"
fi
expect callgrind.sh "unknown benchmark 'nope'" timers nope
expect targets.sh "cannot read /nonexistent" /nonexistent /dev/null /dev/null
expect footprint/run.sh "ROUNDS must be a positive integer, not 'abc'" / abc
expect wake-footprint.py "--wakes takes a positive number, not '0'" / --wakes 0
expect wake-footprint.py "--wakes needs a value" / --wakes
expect wake-footprint.py "--modes: unknown mode busy" / --modes request,busy

# libuv-suite.py runs a failed benchmark once more: a run that then passes
# is counted and named, one that fails again fails the suite.
retry=$(python3 - "$top/bench/libuv-suite.py" <<'PY' 2>&1
import importlib.util, os, sys, tempfile
spec = importlib.util.spec_from_file_location("suite", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
m.say = lambda *a: None
for outcomes in ([False, True], [False, False], [True]):
    s = m.Suite(tempfile.mkdtemp(), "", [], 1, False, False, False)
    s.res = tempfile.mkdtemp()
    left = list(outcomes)
    def once(cfg, name, quiet, s=s, left=left):
        open("%s/%s.%s.log" % (s.res, cfg, name), "w").close()
        ok = left.pop(0)
        if not ok and not quiet:
            s.failed = True
        return ok
    s.run_once = once
    s.run("uv144", "bench")
    kept = os.path.exists("%s/uv144.bench.log.failed" % s.res)
    print("%s failed=%s retried=%s kept=%s" % (outcomes, s.failed, s.retried, kept))
PY
)
want="[False, True] failed=False retried=['bench on uv144'] kept=True
[False, False] failed=True retried=[] kept=True
[True] failed=False retried=[] kept=False"
if [ "$retry" = "$want" ]; then echo "PASS: libuv-suite.py runs a failed run once more"
else fail "libuv-suite.py's second run: got
$retry"; fi

for script in "$top"/bench/*.sh "$top"/bench/*.py; do
  [ -e "$script" ] || continue
  case " $with_rounds $others " in
    *" ${script##*/} "*) ;;
    *) fail "${script##*/} is in neither list of test/bench/args.sh" ;;
  esac
done
exit $status
