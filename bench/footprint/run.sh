#!/bin/sh
# SPDX-License-Identifier: MIT
# What the drop-in libuv.so.1 costs a program, against real libuv: the
# library's size (text, data, bss; and the file) and the resident set of
# a small libuv program at exit (bench/footprint/footprint.c, one binary
# built against Debian's uv.h), run alternately on each library, and the
# instructions of one run (callgrind, with valgrind installed); then
# what one more started handle of each kind adds to the heap and to the
# resident set (bench/footprint/handles.c, the same way).
#
# usage: bench/footprint/run.sh DROPIN_DIR [ROUNDS]
#   DROPIN_DIR  the directory of phaseloop's libuv.so.1 (build/dropin/.libs)
#   ROUNDS      runs per library (default 9); the median is reported
# Prints one line per figure: NAME libuv phaseloop ratio (phaseloop/libuv:
# below 1, phaseloop takes less).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
bench_name=footprint
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: bench/footprint/run.sh DROPIN_DIR [ROUNDS]" >&2; exit 2; }
rounds=${2:-9}
bench_positive ROUNDS "$rounds"
dropin=$(cd "$1" && pwd -P)
[ -e "$dropin/libuv.so.1" ] || { echo "footprint: no libuv.so.1 in $dropin" >&2; exit 2; }
real=$(pkg-config --variable=libdir libuv)/libuv.so.1
real=$(readlink -f "$real")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/footprint.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -o "$tmp/footprint" "$here/footprint.c" $(pkg-config --cflags --libs libuv)
${CC:-cc} -O2 -o "$tmp/handles" "$here/handles.c" $(pkg-config --cflags --libs libuv)

# run LABEL [LD_LIBRARY_PATH]: one run, its figures appended to LABEL.txt,
# after checking which library it mapped.
run() {
  out=$(env ${2:+LD_LIBRARY_PATH=$2} "$tmp/${prog:-footprint}") || { echo "footprint: the program failed on $1" >&2; exit 1; }
  mapped=$(printf '%s\n' "$out" | sed -n 's/^mapped //p')
  case $1 in
    libuv) [ "$(readlink -f "$mapped")" = "$real" ] ;;
    phaseloop) case $mapped in "$dropin"/libuv.so*) true ;; *) false ;; esac ;;
  esac || { echo "footprint: the $1 run mapped $mapped" >&2; exit 1; }
  printf '%s\n' "$out" | grep -v '^mapped' >> "$tmp/$1.txt"
}
prog=footprint
# alternate: ROUNDS runs of $prog on each library, alternating.
alternate() {
  i=0
  while [ $i -lt "$rounds" ]; do
    run libuv
    run phaseloop "$dropin"
    i=$((i + 1))
  done
}
alternate

median() { # FILE NAME
  awk -v n="$2" '$1 == n { print $2 }' "$1" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
line() { # NAME LIBUV PHASELOOP
  awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN {
    if (a + 0 == 0) printf "%-14s %10s %10s %7s\n", n, a, b, (b + 0 == 0 ? "=" : "-")
    else printf "%-14s %10s %10s %7.2f\n", n, a, b, b / a }'
}
printf '%-14s %10s %10s %7s\n' figure libuv phaseloop ratio
for f in rss_kb rss_anon_kb rss_file_kb; do
  line "$f" "$(median "$tmp/libuv.txt" $f)" "$(median "$tmp/phaseloop.txt" $f)"
done
set -- $(size -A "$real" | awk '$1 == ".text" { t = $2 } $1 == ".data" || $1 == ".data.rel.ro" { d += $2 } $1 == ".bss" { b = $2 } END { print t, d, b }')
set -- "$@" $(size -A "$dropin/libuv.so.1" | awk '$1 == ".text" { t = $2 } $1 == ".data" || $1 == ".data.rel.ro" { d += $2 } $1 == ".bss" { b = $2 } END { print t, d, b }')
line text_bytes "$1" "$4"
line data_bytes "$2" "$5"
line bss_bytes "$3" "$6"
line file_bytes "$(stat -L -c %s "$real")" "$(stat -L -c %s "$dropin/libuv.so.1")"
# Debian's libuv.so.1 is stripped; the build's drop-in carries debug
# information: compare the drop-in stripped as a package would ship it.
strip -o "$tmp/stripped.so" "$dropin/libuv.so.1"
line stripped_bytes "$(stat -L -c %s "$real")" "$(stat -c %s "$tmp/stripped.so")"
line exports "$(nm -D --defined-only "$real" | wc -l)" "$(nm -D --defined-only "$dropin/libuv.so.1" | wc -l)"
# Instructions of one whole run of the program, the dynamic loader's work
# and the libraries' initialisation included (callgrind), when valgrind
# is installed.
if command -v valgrind > /dev/null 2>&1; then
  instructions() {
    env ${1:+LD_LIBRARY_PATH=$1} valgrind --tool=callgrind --callgrind-out-file=/dev/null "$tmp/footprint" 2>&1 > /dev/null |
      sed -n 's/.*Collected : *//p'
  }
  line run_instr "$(instructions)" "$(instructions "$dropin")"
fi
echo "(libuv: $real; phaseloop: $dropin/libuv.so.1; median of $rounds runs each, alternating)"

# Per handle: bytes one more started handle adds (heap in use, resident set).
prog=handles
: > "$tmp/libuv.txt"
: > "$tmp/phaseloop.txt"
alternate
echo
printf '%-14s %10s %10s %7s\n' "per handle" libuv phaseloop ratio
for f in $(awk '!seen[$1]++ { print $1 }' "$tmp/libuv.txt"); do
  line "$f" "$(median "$tmp/libuv.txt" "$f")" "$(median "$tmp/phaseloop.txt" "$f")"
done
echo "(bytes per handle, each kind started N at a time on one loop after a first round; bench/footprint/handles.c; '=': both 0)"
