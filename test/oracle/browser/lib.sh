# SPDX-License-Identifier: MIT
# lib.sh -- shared by compare.sh and check-stable.sh (sourced, not run).
# POSIX sh plus `local`, so it also runs under dash (automake's $(SHELL)).
#
# Knows where the real browser oracle is, how to read a scenario's header and
# how to run Chromium on one scenario the same way every time.
#
# Oracle (tools/install-browser-oracle puts both in place):
#   ${PHASELOOP_CHROMIUM:-/usr/bin/chromium}, Debian's chromium, driven by
#   playwright-core from ${PHASELOOP_BROWSER_ORACLE_DIR:-<repo>/.oracle/browser}
#   through chromium.js (next to this file), run by a Node >= 20
#   (tools/harness-node: playwright-core needs it).
# Expects $oracle_lib_dir to be this file's directory. Also brings in
# ../common.sh (oracle_scenario, oracle_abs, oracle_run, the scratch
# directory, describe, show).

. "$oracle_lib_dir/../common.sh"

oracle_repo=$(cd "$oracle_lib_dir/../../.." && pwd)
oracle_browser_dir=${PHASELOOP_BROWSER_ORACLE_DIR:-$oracle_repo/.oracle/browser}
oracle_chromium=${PHASELOOP_CHROMIUM:-/usr/bin/chromium}
# Per program run, Chromium's start included (chromium.js itself gives a
# scenario PHASELOOP_BROWSER_TIMEOUT_MS, default 10 s, to print END).
oracle_timeout=${PHASELOOP_ORACLE_TIMEOUT:-60}
# The Node that runs chromium.js: one >= 20 (tools/harness-node), empty
# when there is none (oracle_check says why).
oracle_node=$("$oracle_repo/tools/harness-node" 2> /dev/null) || oracle_node=

# oracle_check: print why the browser oracle cannot run (one line) and
# return 1, or return 0 silently.
oracle_check() {
  if [ -z "$oracle_node" ]; then
    "$oracle_repo/tools/harness-node" 2>&1 > /dev/null
    return 1
  fi
  if [ ! -x "$oracle_chromium" ]; then
    echo "$oracle_chromium is not installed; run tools/install-browser-oracle"
    return 1
  fi
  if [ ! -f "$oracle_browser_dir/node_modules/playwright-core/package.json" ]; then
    echo "playwright-core is not installed in $oracle_browser_dir; run tools/install-browser-oracle"
    return 1
  fi
  return 0
}

# oracle_header FILE: check the scenario's first line, "// oracle: browser";
# on a bad header print why and return 1.
oracle_header() {
  local first
  IFS= read -r first < "$1" || first=
  case $first in
    '// oracle: browser') return 0 ;;
    *)
      echo "the first line must be '// oracle: browser'"
      return 1
      ;;
  esac
}


# oracle_chromium_run DIR OUT ERR [--runs N] SCENARIO: real Chromium.
oracle_chromium_run() {
  local dir=$1 out=$2 err=$3
  shift 3
  oracle_run "$dir" "$out" "$err" "$oracle_node" "$oracle_lib_dir/chromium.js" "$@"
}

# oracle_chromium_answer DIR OUT ERR SCENARIO: real Chromium's first answer,
# kept for the next build tree when PHASELOOP_ORACLE_CACHE is set
# (oracle_run_real; the key names chromium.js by its bytes).
oracle_chromium_answer() {
  local dir=$1 out=$2 err=$3
  shift 3
  oracle_run_real "$(oracle_chromium_label)" \
    "$dir" "$out" "$err" "$oracle_node" "$oracle_lib_dir/chromium.js" "$@"
}

# oracle_chromium_label: what names Chromium's answers in the cache.
oracle_chromium_label() {
  echo "$oracle_chromium chromium.js $(cksum < "$oracle_lib_dir/chromium.js")"
}

# oracle_chromium_version: "Chromium X.Y.Z.W" (empty when it cannot start).
oracle_chromium_version() {
  env -u NODE_OPTIONS timeout -k 5 "$oracle_timeout" \
    "$oracle_node" "$oracle_lib_dir/chromium.js" --version 2> /dev/null
}
