# Helpers for the runner's shell tests (sourced). The tests run from the
# top build directory, as automake runs them; $srcdir is the source tree.
set -u
pl=${PHASELOOP:-./phaseloop}
src=${srcdir:-.}
cases=$src/test/runner/cases
expected=$src/test/runner/expected
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# run_js MODE FILE [ARGS...]: runs the file; stdout in $tmp/out, stderr in
# $tmp/err, the exit status in $status.
run_js() {
  mode=$1
  shift
  checks=$((checks + 1))
  set +e
  "$pl" run --mode="$mode" "$@" > "$tmp/out" 2> "$tmp/err"
  status=$?
  set -e
  check_sanitizers "$mode $*"
}

# check_sanitizers WHAT: in the sanitizer tree, any report on stderr fails.
check_sanitizers() {
  if grep -qE "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:" "$tmp/err"; then
    fail "$1: sanitizer report"
    head -30 "$tmp/err"
  fi
}

# expect_status WHAT N
expect_status() {
  [ "$status" -eq "$2" ] || fail "$1: exit status $status, expected $2 (stderr: $(head -c 300 "$tmp/err"))"
}

# expect_stdout WHAT TEXT: stdout must be exactly TEXT plus a newline
# (nothing at all when TEXT is empty).
expect_stdout() {
  if [ -z "$2" ]; then : > "$tmp/want"; else printf '%s\n' "$2" > "$tmp/want"; fi
  if ! cmp -s "$tmp/want" "$tmp/out"; then
    fail "$1: stdout differs"
    diff -u "$tmp/want" "$tmp/out" | head -40
  fi
}

# expect_in FILE WHAT PATTERN: a fixed string that must appear in FILE.
expect_in() {
  grep -qF -- "$3" "$1" || fail "$2: '$3' not found in $(basename "$1"): $(head -c 600 "$1")"
}

# expect_not_in FILE WHAT PATTERN
expect_not_in() {
  if grep -qF -- "$3" "$1"; then fail "$2: '$3' found in $(basename "$1")"; fi
}

done_testing() {
  if [ "$failures" -ne 0 ]; then
    echo "$failures of $checks checks failed"
    exit 1
  fi
  echo "all $checks checks passed"
  exit 0
}
