# Shell functions both oracle suites' compare.sh use (sourced): the scratch
# directory and how runs are described in messages.

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
