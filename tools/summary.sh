# Sourced by the test scripts (tools/test, tools/test-clients,
# tools/test-subset, .ci/run): the running tally behind the one line each
# of them ends with, "N passed, M failed".
pass=${pass:-0}
fail=${fail:-0}

# tally LOG: adds the last "N passed, M failed" line of LOG (every suite
# and kit ends with one) to pass and fail, and keeps it in tally_line. A
# LOG without such a line counts as one failure (the suite did not finish)
# and returns 1.
tally() {
  tally_line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" 2> /dev/null | tail -1)
  if [ -z "$tally_line" ]; then
    fail=$((fail + 1))
    return 1
  fi
  pass=$((pass + ${tally_line%% passed*}))
  tally_rest=${tally_line#*passed, }
  fail=$((fail + ${tally_rest%% failed*}))
}

# tally_make_check LOG: adds an automake test-suite.log's counts, each
# suite one test, and keeps them in tally_p and tally_f. A skipped suite
# counts as failed: tools/setup installs what every suite needs, so a skip
# means it did not. A missing LOG counts as one failure and returns 1.
tally_make_check() {
  if [ ! -f "$1" ]; then
    fail=$((fail + 1))
    return 1
  fi
  tally_p=$(sed -n 's/^# PASS: *//p' "$1" | head -1)
  tally_p=${tally_p:-0}
  tally_f=$(sed -n 's/^# FAIL: *//p; s/^# ERROR: *//p; s/^# XPASS: *//p; s/^# SKIP: *//p' "$1" | awk '{s += $1} END {print s + 0}')
  pass=$((pass + tally_p))
  fail=$((fail + tally_f))
}

# summary: the closing line.
summary() {
  echo "$pass passed, $fail failed"
}
