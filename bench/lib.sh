# SPDX-License-Identifier: MIT
# bench/lib.sh -- what the bench scripts share: their checks of round
# counts and option values, and their tables' arithmetic (sourced by the
# shell scripts that take rounds; test/bench/args.sh lists them, and
# bench/libuv-suite.py, which makes the same checks and arithmetic in
# Python).

bench_name=${0##*/}

# bench_need OPTION ARGC: OPTION, seen with ARGC arguments left (itself
# included), has a value after it; if not, says so and exits 2 (without
# it, a script under `set -u` stops on a bare "$2: unbound variable", and
# one without sees the option again, as `shift 2` fails and shifts
# nothing).
bench_need() {
  [ "$2" -ge 2 ] || { echo "$bench_name: $1 needs a value" >&2; exit 2; }
}

# bench_positive WHAT VALUE: exits 2 with a message unless VALUE is a
# positive integer.
bench_positive() {
  case $2 in
    '' | *[!0-9]* | 0) echo "$bench_name: $1 must be a positive integer, not '$2'" >&2; exit 2 ;;
  esac
}

# median_of: the median of the numbers on standard input (one per line;
# the lower middle one of an even count), nothing for none.
median_of() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}

# ratio A B: A / B with two decimals, "-" when either is missing or B is 0.
ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "-"; else printf "%.2f", a / b }'
}
