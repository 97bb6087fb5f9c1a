# bench/lib.sh -- what the bench scripts' tables share (sourced by
# libuv-suite.sh, fs-io.sh, node-layer.sh and engine-promises.sh).

# median_of: the median of the numbers on standard input (one per line;
# the lower middle one of an even count), nothing for none.
median_of() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}

# ratio A B: A / B with two decimals, "-" when either is missing or B is 0.
ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "-"; else printf "%.2f", a / b }'
}
