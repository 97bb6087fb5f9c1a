# SPDX-License-Identifier: MIT
# Shell functions both oracle suites use (sourced by each suite's lib.sh):
# the scenario argument, running a program under the timeout, the scratch
# directory and how runs are described in messages.

# oracle_scenario ARGS...: the scenario is the last argument (so the script
# works as an automake LOG_COMPILER); sets $scenario (absolute) and $name,
# or exits (2: no argument, 1: no such file).
oracle_scenario() {
  if [ $# -lt 1 ]; then
    echo "usage: $0 SCENARIO.js" >&2
    exit 2
  fi
  for scenario in "$@"; do :; done
  if [ ! -f "$scenario" ]; then
    echo "FAIL: no such scenario: $scenario"
    exit 1
  fi
  scenario=$(oracle_abs "$scenario")
  name=$(basename "$scenario" .js)
}

# oracle_phaseloop: sets $phaseloop to the binary under test
# ($PHASELOOP_BIN, a path or a command name; default <repo>/build/phaseloop),
# or exits 1 when it is not executable.
oracle_phaseloop() {
  phaseloop=${PHASELOOP_BIN:-$oracle_repo/build/phaseloop}
  case $phaseloop in
    */*) ;;
    *) phaseloop=$(command -v "$phaseloop" || echo "$phaseloop") ;;
  esac
  if [ ! -x "$phaseloop" ]; then
    echo "FAIL $name: phaseloop binary not found or not executable: $phaseloop (set PHASELOOP_BIN)"
    exit 1
  fi
}

# oracle_abs FILE: FILE as an absolute path.
oracle_abs() {
  echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
}

# oracle_run DIR OUT ERR PROGRAM [ARGS...]: run PROGRAM with cwd DIR, stdin
# from /dev/null, stdout to OUT, stderr to ERR, under the timeout
# ($oracle_timeout seconds); NODE_OPTIONS is cleared so the caller's
# environment cannot change Node's behaviour. Returns the program's exit
# status (124 on timeout).
oracle_run() {
  local dir=$1 out=$2 err=$3
  shift 3
  (cd "$dir" && exec env -u NODE_OPTIONS timeout -k 5 "$oracle_timeout" "$@") \
    > "$out" 2> "$err" < /dev/null
}

# oracle_run_real LABEL DIR OUT ERR PROGRAM [ARGS...]: oracle_run for the
# real program (Node, Chromium). tools/test runs the suite in two build
# trees, and the real program's answer to a scenario is the same for both:
# with PHASELOOP_ORACLE_CACHE set, the answer (stdout, stderr, status) is
# kept there under the SHA-256 of LABEL (which names the program and its
# version) and the scenario's bytes, and a later call with the same key
# gives it back without running anything; $oracle_cached says which
# (1 kept, 0 run now). Timeouts and deaths by a signal are never kept.
# A caller whose check fails on a kept answer asks the program again
# (oracle_ask_twice_more).
oracle_run_real() {
  local label=$1 dir=$2 out=$3 err=$4 entry rc
  shift 4
  oracle_cached=0
  if [ -z "${PHASELOOP_ORACLE_CACHE:-}" ]; then
    oracle_run "$dir" "$out" "$err" "$@"
    return
  fi
  entry=$(oracle_entry "$label")
  if [ -f "$entry/status" ]; then
    cp "$entry/out" "$out" && cp "$entry/err" "$err" && oracle_cached=1 &&
      return "$(cat "$entry/status")"
  fi
  oracle_run "$dir" "$out" "$err" "$@"
  rc=$?
  oracle_keep "$label" "$out" "$err" "$rc"
  return "$rc"
}

# oracle_entry LABEL: the cache directory of $scenario's answer under LABEL.
oracle_entry() {
  local key
  key=$({ printf '%s\n' "$1"; cat "$scenario"; } | sha256sum)
  echo "$PHASELOOP_ORACLE_CACHE/${key%% *}"
}

# oracle_keep LABEL OUT ERR STATUS: keep (or replace) the answer to
# $scenario under LABEL when PHASELOOP_ORACLE_CACHE is set, but for a
# timeout or a death by a signal.
oracle_keep() {
  local entry new
  [ -n "${PHASELOOP_ORACLE_CACHE:-}" ] && [ "$4" -ne 124 ] && [ "$4" -le 128 ] || return 0
  entry=$(oracle_entry "$1")
  mkdir -p "$PHASELOOP_ORACLE_CACHE" && new=$(mktemp -d "$PHASELOOP_ORACLE_CACHE/.new.XXXXXX") || return 0
  # Complete before it has its name: another test reading the same key
  # at the same time sees all of it or nothing.
  { cp "$2" "$new/out" && cp "$3" "$new/err" && echo "$4" > "$new/status" &&
    rm -rf "$entry" && mv -T "$new" "$entry"; } 2> /dev/null || rm -rf "$new"
}

# oracle_ask_twice_more WHO TAG LABEL OUT STATUS PL_OUT PL_STATUS RUN:
# the real program's answer (stdout in OUT, stderr in OUT's .err sibling,
# exit STATUS), fresh or kept, is not phaseloop's (PL_OUT, PL_STATUS).
# Timing scenarios classify what they measure, and a loaded machine can
# push one run of the real program over the line, so `RUN N` (N = 2, 3)
# asks it twice more, into OUT's siblings X.N.out and X.N.err. When both
# answers are phaseloop's, they are the real program's: they replace OUT,
# are kept under LABEL, a note shows the first answer's diff (TAG names
# the check, WHO the program), and it returns 0. A phaseloop that is wrong
# still fails: the real program would have to lose the same race twice in
# a row to agree with it. Then a kept first answer gives way to the
# second, fresh one (in OUT; the cache forgets it, so that the next check
# asks anew), and it returns 1. $oracle_status is the status of the
# answer OUT holds after.
oracle_ask_twice_more() {
  local who=$1 tag=$2 label=$3 out=$4 pl_out=$6 pl_rc=$7 run=$8
  local base=${4%.out} agree=0 n rc second_rc first
  oracle_status=$5
  for n in 2 3; do
    "$run" "$n"
    rc=$?
    [ "$n" = 2 ] && second_rc=$rc
    cmp -s "$base.$n.out" "$pl_out" && [ "$rc" -eq "$pl_rc" ] && agree=$((agree + 1))
  done
  if [ "$agree" -eq 2 ]; then
    if [ "$oracle_cached" = 1 ]; then first="kept answer"; else first="first run"; fi
    echo "note $tag: $who's $first differed, its next two runs matched phaseloop (a race a loaded machine loses):"
    diff -u --label "$who, $first" --label "$who, runs 2 and 3" "$out" "$pl_out"
  elif [ "$oracle_cached" != 1 ]; then
    return 1
  fi
  # OUT takes the second, fresh answer: kept if runs 2 and 3 agreed with
  # phaseloop, else the kept first answer is forgotten.
  cp "$base.2.out" "$out" && cp "$base.2.err" "$base.err"
  oracle_status=$second_rc
  if [ "$agree" -eq 2 ]; then
    oracle_keep "$label" "$out" "$base.err" "$second_rc"
  else
    rm -rf "$(oracle_entry "$label")"
    return 1
  fi
}

# oracle_scratch PREFIX: makes the scratch directory $work, removed on exit
# unless PHASELOOP_ORACLE_KEEP is set (then its path is printed).
oracle_scratch() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
  trap oracle_cleanup EXIT
  trap 'exit 1' HUP INT TERM
}

oracle_cleanup() {
  if [ -n "${PHASELOOP_ORACLE_KEEP:-}" ]; then
    echo "compare.sh: scratch directory kept: $work"
  else
    rm -rf "$work"
  fi
}

# describe STATUS: how a run ended, for messages.
describe() {
  case $1 in
    0) echo "exit 0" ;;
    124) echo "timed out after ${oracle_timeout}s" ;;
    13[0-9] | 14[0-9] | 15[0-9]) echo "exit $1 (signal $(($1 - 128)))" ;;
    *) echo "exit $1" ;;
  esac
}

# show LABEL FILE: print a captured stream, indented.
show() {
  echo "--- $1 ---"
  if [ -s "$2" ]; then sed 's/^/  /' "$2"; else echo "  (empty)"; fi
}
