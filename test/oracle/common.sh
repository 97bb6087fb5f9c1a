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
