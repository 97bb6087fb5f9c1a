#!/bin/sh
# SPDX-License-Identifier: MIT
# The command line: run --help and compare --help, -V, --mode without a
# value, --libuv, scripts from standard input (run - and /dev/stdin, compare -), a
# missing file's status in run and compare, compare --timeout, and a NUL
# byte in the source line an error report shows.
. "${srcdir:-.}/test/runner/lib.sh"
set -e

# cmd ARGS...: runs phaseloop; stdout, stderr, $status as run_js does.
cmd() {
  checks=$((checks + 1))
  set +e
  "$pl" "$@" > "$tmp/out" 2> "$tmp/err"
  status=$?
  set -e
  check_sanitizers "$*"
}

cmd run --help
expect_status "run --help" 0
expect_in "$tmp/out" "run --help" "phaseloop run [--mode=MODE]"
expect_in "$tmp/out" "run --help" "--trace=OUT.json"
expect_not_in "$tmp/out" "run --help" "phaseloop compare ["
cmd compare --help
expect_status "compare --help" 0
expect_in "$tmp/out" "compare --help" "phaseloop compare [--modes=M1,M2,...] [--timeout=SECONDS]"
expect_not_in "$tmp/out" "compare --help" "--expose-gc"

cmd -V
expect_status "-V" 0
grep -qE "SpiderMonkey (102|128)[.;]" "$tmp/out" || fail "-V: no SpiderMonkey 102 or 128 in: $(head -c 300 "$tmp/out")"

cmd run --mode
expect_status "run --mode" 2
expect_in "$tmp/err" "run --mode" "--mode needs a value"
cmd run --mode= x.js
expect_status "run --mode=" 2
expect_in "$tmp/err" "run --mode=" "--mode needs a value"

# --libuv: the phase order of the libuv a Node runs on. A timers callback
# that outlasts the next timeout's delay, after a promise job that read the
# clock: libuv 1.46 (upstream Node 20) runs that timeout in the same pass,
# before the waiting immediate; 1.50 (Debian 13's Node) only in the next.
cat > "$tmp/uv.js" <<'EOF_JS'
const W = new Int32Array(new SharedArrayBuffer(4));
const busy = (ms) => Atomics.wait(W, 0, 0, ms);
setTimeout(() => {
  Promise.resolve().then(() => setTimeout(() => {}, 50));
  setTimeout(() => console.log('timeout'), 0);
  busy(3);
}, 1);
setImmediate(() => console.log('immediate'));
busy(3);
EOF_JS
cmd run --libuv=1.46.0 "$tmp/uv.js"
expect_status "run --libuv=1.46.0" 0
expect_stdout "run --libuv=1.46.0" "timeout
immediate"
cmd run --libuv=1.50 "$tmp/uv.js"
expect_status "run --libuv=1.50" 0
expect_stdout "run --libuv=1.50" "immediate
timeout"
cmd run --libuv=two "$tmp/uv.js"
expect_status "run --libuv=two" 2
expect_in "$tmp/err" "run --libuv=two" "--libuv=two is no libuv version"
cmd run --mode=browser --libuv=1.50 "$tmp/uv.js"
expect_status "run --mode=browser --libuv" 2
expect_in "$tmp/err" "run --mode=browser --libuv" "--libuv is for the Node modes"

# As node: FILE.js alone, -e, -p, -v; and --opt VALUE as well as --opt=VALUE.
printf 'console.log(process.argv.length, 6 * 7);\n' > "$tmp/short.js"
cmd "$tmp/short.js"
expect_status "FILE.js alone" 0
expect_stdout "FILE.js alone" "2 42"
cmd --mode node10 "$tmp/short.js" extra
expect_status "--mode node10 FILE.js" 0
expect_stdout "--mode node10 FILE.js" "3 42"
cmd -e 'console.log(__filename, process.argv.slice(1).join(","))' a b
expect_status "-e" 0
expect_stdout "-e" "[eval] a,b"
cmd -p 'const x = [1, 2]; x.map((v) => v * 2)'
expect_status "-p" 0
expect_stdout "-p" "[ 2, 4 ]"
cmd run --mode=node10 -p '"a" + 1'
expect_stdout "run -p" "a1"
cmd run --mode browser -p 1
expect_status "-p in browser mode" 2
cmd -e
expect_status "-e without code" 2
expect_in "$tmp/err" "-e without code" "-e needs a value"
cmd -v
expect_status "-v" 0
expect_in "$tmp/out" "-v" "phaseloop 0."
cmd compare --modes node10,node --timeout 20 "$tmp/short.js"
expect_status "compare --modes X --timeout Y" 0
cmd run --libuv 1.27.0 "$tmp/short.js"
expect_status "run --libuv 1.27.0 (Node 11's)" 0
cmd frobnicate
expect_status "an unknown command" 2
expect_in "$tmp/err" "an unknown command" "unknown command 'frobnicate'"

# Standard input, with Node's names for such a script.
printf '%s\n' "console.log(__filename, __dirname, process.argv[1], process.argv[2]);" > "$tmp/names.js"
for m in node10 node; do
  checks=$((checks + 1))
  status=0
  "$pl" run --mode=$m - extra < "$tmp/names.js" > "$tmp/out" 2> "$tmp/err" || status=$?
  expect_status "run - ($m)" 0
  expect_stdout "run - ($m)" "[stdin] . - extra"
done
checks=$((checks + 1))
status=0
printf 'console.log("piped")\n' | "$pl" run /dev/stdin > "$tmp/out" 2> "$tmp/err" || status=$?
expect_status "run /dev/stdin" 0
expect_stdout "run /dev/stdin" "piped"
checks=$((checks + 1))
status=0
printf 'setTimeout(() => console.log("t"), 0); Promise.resolve().then(() => console.log("p"));\n' |
  "$pl" compare - > "$tmp/out" 2> "$tmp/err" || status=$?
expect_status "compare -" 0
expect_in "$tmp/out" "compare -" "All 4 modes print the same 2 lines."
# An error in a script from standard input is located as Node does.
checks=$((checks + 1))
status=0
printf 'let a = 1;\nthrow new Error("from stdin");\n' | "$pl" run - > "$tmp/out" 2> "$tmp/err" || status=$?
expect_status "throw from stdin" 1
expect_in "$tmp/err" "throw from stdin" "[stdin]:2"

# A missing file: status 1 in both commands.
cmd run "$tmp/nope.js"
expect_status "run missing" 1
expect_in "$tmp/err" "run missing" "cannot open $tmp/nope.js"
cmd compare "$tmp/nope.js"
expect_status "compare missing" 1
expect_in "$tmp/err" "compare missing" "cannot open $tmp/nope.js"

# compare --timeout: a mode that never ends is stopped and named; the
# others still run and the runs are compared. (5 s: a sanitizer build on a
# loaded machine may take more than a second just to start a mode, and then
# both would be stopped.)
cat > "$tmp/forever.js" <<'JS'
console.log('start');
if (typeof setImmediate === 'function') setInterval(() => {}, 1000);
JS
cmd compare --modes=node,browser --timeout=5 "$tmp/forever.js"
expect_status "compare --timeout" 1
expect_in "$tmp/err" "compare --timeout" "phaseloop: mode node was stopped after 5 s (--timeout=5)"
expect_in "$tmp/out" "compare --timeout" "timed out"
expect_in "$tmp/out" "compare --timeout" "was stopped by the timeout"
for bad in --timeout=x --timeout=-1 --timeout=; do
  cmd compare $bad "$tmp/forever.js"
  expect_status "compare $bad" 2
  expect_in "$tmp/err" "compare $bad" "--timeout wants seconds"
done

# A NUL byte in the line an error report shows: the report goes on past it.
printf 'const s = "a\000b"; throw new Error("after the nul");\n' > "$tmp/nul.js"
run_js node "$tmp/nul.js"
expect_status "NUL in the source line" 1
expect_in "$tmp/err" "NUL in the source line" "Error: after the nul"

# Output to a pipe is written as Node writes it, line by line: a script
# killed by a timeout keeps what it printed.
printf 'console.log("one");\nconsole.log("two");\nfor (;;) {}\n' > "$tmp/killed.js"
checks=$((checks + 1))
set +e
timeout -s KILL 3 "$pl" run --mode=node "$tmp/killed.js" | cat > "$tmp/out"
set -e
[ "$(cat "$tmp/out")" = "$(printf 'one\ntwo')" ] || fail "killed run: the pipe got '$(cat "$tmp/out")', not its two lines"

done_testing
