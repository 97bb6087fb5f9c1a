#!/bin/sh
# SPDX-License-Identifier: MIT
# compare.sh -- check one scenario: real headless Chromium vs
# `phaseloop run --mode=browser`.
#
# Usage: compare.sh [ignored args...] SCENARIO.js
#
# The scenario's first line must be "// oracle: browser". Real Chromium runs
# it through chromium.js (see there: a blank page on 127.0.0.1, the scenario
# inserted as a script once the page has loaded, console.log lines collected
# until the line END) and
#   $PHASELOOP_BIN run --mode=browser SCENARIO.js
# runs it in a fresh scratch directory, each under a timeout. Their stdout
# must be byte-identical and both must exit 0. stderr is not compared; it is
# shown when a check fails. When Chromium's first output differs it is run
# twice more and phaseloop must match both (a loaded machine can make
# Chromium lose a rendering-opportunity race once; see below).
#
# Chromium alone:
#   ORACLE_ONLY=1  run Chromium only, print its output, exit 0.
#
# Environment:
#   PHASELOOP_BIN                 phaseloop binary (default <repo>/build/phaseloop)
#   PHASELOOP_CHROMIUM            the browser (default /usr/bin/chromium)
#   PHASELOOP_BROWSER_ORACLE_DIR  where playwright-core is (default <repo>/.oracle/browser)
#   PHASELOOP_ORACLE_TIMEOUT      seconds per program run (default 60)
#
# Exit status: 0 a match; 77 (automake's SKIP) when Chromium or
# playwright-core is not installed, with the command that installs them;
# 1 otherwise.
#   PHASELOOP_BROWSER_TIMEOUT_MS  cap on a scenario reaching END in Chromium (default 10000)
#   PHASELOOP_ORACLE_KEEP=1       keep the scratch directory and print its path
#   PHASELOOP_ORACLE_CACHE        a directory where Chromium's first answers are
#                                 kept for the next build tree (tools/test
#                                 sets it); a kept answer phaseloop does not
#                                 give is checked by the two further runs below
#
# Exit status: 0 match (or ORACLE_ONLY=1 and Chromium ran the scenario); 1 a
# mismatch, a failure or timeout in Chromium or phaseloop, a bad header, or a
# missing oracle or phaseloop binary.
# Usable as an automake LOG_COMPILER: the scenario is the last argument.

set -u

oracle_lib_dir=$(cd "$(dirname "$0")" && pwd)
. "$oracle_lib_dir/lib.sh"
oracle_scenario "$@"

if ! why=$(oracle_header "$scenario"); then
  echo "FAIL $name: $why"
  exit 1
fi
if ! why=$(oracle_check); then
  # No reference here (a tarball build after tools/setup): skipped, with
  # what to do. tools/test installs it and counts a skip as a failure.
  echo "SKIP $name: $why"
  exit 77
fi

oracle_scratch phaseloop-browser-oracle

mkdir -p "$work/chromium" "$work/phaseloop"
oracle_chromium_answer "$work/chromium" "$work/chromium.out" "$work/chromium.err" "$scenario"
chromium_rc=$?
if [ "$chromium_rc" -ne 0 ]; then
  echo "FAIL $name: real Chromium $(describe "$chromium_rc"); the scenario or the oracle is broken"
  show "chromium stdout" "$work/chromium.out"
  show "chromium stderr" "$work/chromium.err"
  exit 1
fi

if [ -n "${ORACLE_ONLY:-}" ]; then
  cat "$work/chromium.out"
  echo "ORACLE-ONLY $name (real Chromium only; phaseloop not run)"
  exit 0
fi

oracle_phaseloop

oracle_run "$work/phaseloop" "$work/pl.out" "$work/pl.err" \
  "$phaseloop" run --mode=browser "$scenario"
pl_rc=$?

# A loaded machine can starve Chromium's compositor so that a rendering
# opportunity comes a task later than on an idle one (check-stable.sh -j 4 -l
# shows it for the frame-versus-0 ms-timer scenarios, about 1 run in 60).
# So when Chromium's answer differs, it is asked twice more, and phaseloop
# must give both later answers (common.sh's oracle_ask_twice_more).
chromium_again() {
  oracle_chromium_run "$work/chromium" "$work/chromium.$1.out" \
    "$work/chromium.$1.err" "$scenario"
}
ok=1
if ! cmp -s "$work/chromium.out" "$work/pl.out" &&
   ! oracle_ask_twice_more "Chromium" "$name" "$(oracle_chromium_label)" \
       "$work/chromium.out" 0 "$work/pl.out" 0 chromium_again; then
  ok=0
  echo "FAIL $name: stdout differs from real Chromium (one or both of two further Chromium runs did not match phaseloop either)"
  diff -u --label "chromium/$name.js stdout" \
    --label "phaseloop --mode=browser $name.js stdout" \
    "$work/chromium.out" "$work/pl.out"
fi
if [ "$pl_rc" -ne 0 ]; then
  ok=0
  echo "FAIL $name: phaseloop $(describe "$pl_rc") (real Chromium printed END and finished)"
fi
if [ "$ok" -eq 0 ]; then
  show "phaseloop --mode=browser stderr" "$work/pl.err"
  exit 1
fi
echo "PASS $name (matches real Chromium)"
exit 0
